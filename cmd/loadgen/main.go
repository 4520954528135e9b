// Command loadgen puts open-loop load on a rate limiter and checks latency
// thresholds.
//
//	loadgen run [flags]                    load one target (make load); GENERATORS=N: N generators
//	                                       on Docker Swarm, or -emit k8s: a Kubernetes Indexed Job
//	loadgen merge [flags] a.hlog b.hlog …   combine interval logs from several machines
//	loadgen version                        print the module version, VCS revision and Go version
//
// Settings are flags and the target contract's environment variables
// (TARGET_URL …, RATE, DURATION, WARMUP, CONNECTIONS, BUCKETS, THRESHOLDS,
// REPORT_DIR); run a subcommand with -h for the list. Exit status: 0 every
// threshold held, 1 one was breached, 2 the load could not run.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usage is `loadgen -h`.
const usage = `usage: loadgen <command> [flags]

loadgen puts open-loop load on a rate limiter and checks latency thresholds.

commands:
  run     load one target (make load); GENERATORS=N has N generators on
          Docker Swarm share it, -emit k8s prints them as a Kubernetes Job
  merge   combine interval logs (load.hlog) from several machines

loadgen <command> -h lists a command's flags; every flag can also be set by
its environment variable. Exit status: 0 every threshold held, 1 one was
breached, 2 the load could not run.
`

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: loadgen <run|merge|version> [flags] (loadgen -h for help)")
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "run":
		return runLoad(ctx, args[1:], stdout, stderr, os.LookupEnv)
	case "merge":
		return runMerge(args[1:], stdout, stderr, os.LookupEnv)
	case "version":
		return runVersion(args[1:], stdout, stderr)
	case "serve-trivial": // hidden: the comparison's trivial target
		return serveTrivial(ctx, args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "loadgen: unknown subcommand %q; usage: loadgen <run|merge|version> [flags]\n", args[0])
	return 2
}
