// Command rlspec verifies an HTTP rate limiter against its design: one of the
// profiles of the registry (package profile; docs/profiles.md), the PRD among them.
//
//	rlspec probe [flags]        look at TARGET_URL with a few requests, suggest the settings
//	rlspec acceptance [flags]   run the Gherkin acceptance suite (make acceptance)
//	rlspec race [flags]         hunt races with property-based workloads (make race)
//	rlspec selftest [flags]     run the suite against the reference and every fault
//	rlspec image                build the reference image rlspec-reference:latest
//	rlspec load [flags]         loadgen run: load, on Docker Swarm or as a k8s Job (make load)
//	rlspec version              print the module version, VCS revision and Go version
//	rlspec summary              the Markdown summary of a JUnit report, for CI step summaries
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

	"github.com/rlspec/rlspec/profile"
)

// command runs one subcommand and returns its exit status.
type command func(ctx context.Context, args []string, stdout, stderr io.Writer) int

func commands() map[string]command {
	return map[string]command{
		"acceptance": runAcceptance,
		"race":       runRace,
		"selftest":   runSelftest,
		"image":      runImage,
		"load":       runLoad,
		"version":    runVersion,
		"summary":    runSummary,
		"probe":      runProbe,
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// summaries are the one-line descriptions `rlspec -h` lists.
var summaries = map[string]string{
	"acceptance": "run the Gherkin acceptance suite (make acceptance)",
	"race":       "hunt races with property-based workloads (make race)",
	"selftest":   "run the suite against the reference and every fault (make selftest)",
	"image":      "build the reference image rlspec-reference:latest (make image)",
	"load":       "open-loop load and latency thresholds: loadgen run (GENERATORS, -emit k8s)",
	"probe":      "look at your endpoint with a few requests and suggest the settings",
	"summary":    "the Markdown summary of a JUnit report, for CI job summaries",
	"version":    "print the module version, VCS revision and Go version",
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprintf(stdout, "usage: rlspec <command> [flags]\n\nrlspec verifies your HTTP rate limiter against its design: a profile of\ndocs/profiles.md (PROFILE: %s).\n\ncommands:\n", profile.Choices(false))
		for _, n := range names {
			fmt.Fprintf(stdout, "  %-11s %s\n", n, summaries[n])
		}
		fmt.Fprintf(stdout, "\nrlspec <command> -h lists a command's flags; every flag can also be set by\nits environment variable. Exit status: 0 pass, 1 fail, 2 could not run.\n")
		return 0
	}
	if len(args) == 0 || cmds[args[0]] == nil {
		if len(args) > 0 {
			fmt.Fprintf(stderr, "rlspec: unknown command %q; ", args[0])
		}
		fmt.Fprintf(stderr, "usage: rlspec <%s> [flags] (rlspec -h for help)\n", joinNames(names))
		return 2
	}
	return cmds[args[0]](ctx, args[1:], stdout, stderr)
}

func isHelp(a string) bool { return a == "-h" || a == "-help" || a == "--help" || a == "help" }

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
