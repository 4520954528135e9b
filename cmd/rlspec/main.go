// Command rlspec verifies an HTTP rate limiter against the device-bucket PRD.
//
//	rlspec acceptance [flags]   run the Gherkin acceptance suite (make acceptance)
//	rlspec race [flags]         hunt races with property-based workloads (make race)
//	rlspec selftest [flags]     run the suite against the reference and every fault
//	rlspec image                build the reference image rlspec-reference:latest
//
// Every setting is a flag and an environment variable of the target contract;
// run a subcommand with -h for the list. Exit status: 0 pass, 1 fail, 2 could
// not run.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// command runs one subcommand and returns its exit status.
type command func(ctx context.Context, args []string, stdout, stderr io.Writer) int

func commands() map[string]command {
	return map[string]command{
		"acceptance": runAcceptance,
		"race":       runRace,
		"selftest":   runSelftest,
		"image":      runImage,
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || cmds[args[0]] == nil {
		names := make([]string, 0, len(cmds))
		for n := range cmds {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(stderr, "usage: rlspec <%s> [flags]\n", joinNames(names))
		return 2
	}
	return cmds[args[0]](ctx, args[1:], stdout, stderr)
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += "|"
		}
		s += n
	}
	return s
}
