package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/target"
)

// runAcceptance runs the Gherkin suite: settings from flags over the
// environment, the verdict table on stdout, one sentence on stderr when the
// suite cannot run. TARGET_IMAGE is started here (the containers package)
// before the suite is given the URLs.
func runAcceptance(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := acceptanceConfig(args)
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(stderr, "  -fault name\n    \tstart the embedded reference with this fault (self-tests); see go run ./cmd/fakeserver -list-faults")
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "rlspec acceptance: %v\n", err)
		return 2
	}
	if cfg.Target.Image != "" && cfg.Target.URL == "" {
		// Start TARGET_IMAGE and its flag-off twin, fill the URLs, and
		// remove the containers on every path out (failure, Ctrl-C).
		given := flagGiven(args, "client-ips")
		if _, ok := os.LookupEnv("CLIENT_IPS"); ok {
			given = true
		}
		_, stop, err := containers.StartForHarness(ctx, &cfg.Target, containers.HarnessOptions{Twin: true, ClientIPsGiven: given}, prefixed(stderr, "rlspec acceptance: "))
		if err != nil {
			fmt.Fprintf(stderr, "rlspec acceptance: could not run: %s\n", oneLine(err.Error()))
			return 2
		}
		defer func() {
			if err := stop(); err != nil {
				fmt.Fprintf(stderr, "rlspec acceptance: removing the containers: %v\n", err)
			}
		}()
	}
	rep, err := acceptance.Run(ctx, cfg, acceptance.WithOutput(stdout))
	if err != nil {
		var cnr *acceptance.CouldNotRun
		if errors.As(err, &cnr) {
			fmt.Fprintf(stderr, "rlspec acceptance: could not run: %s\n", oneLine(cnr.Reason))
			return 2
		}
		fmt.Fprintf(stderr, "rlspec acceptance: %v\n", err)
		return 2
	}
	return rep.ExitCode()
}

// acceptanceConfig fills the one config struct from flags and environment.
// -fault NAME selects a fault of the embedded reference (self-tests).
func acceptanceConfig(args []string) (acceptance.Config, error) {
	var faultName string
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-fault" || a == "--fault":
			if i+1 >= len(args) {
				return acceptance.Config{}, errors.New("-fault needs a value")
			}
			faultName = args[i+1]
			i++
		case strings.HasPrefix(a, "-fault=") || strings.HasPrefix(a, "--fault="):
			_, faultName, _ = strings.Cut(a, "=")
		default:
			rest = append(rest, a)
		}
	}
	tc, err := target.FromEnvironment("rlspec acceptance", rest)
	if err != nil {
		return acceptance.Config{}, err
	}
	fault, err := fakeserver.ParseFault(faultName)
	if err != nil {
		return acceptance.Config{}, err
	}
	if fault != fakeserver.FaultNone && tc.URL != "" {
		return acceptance.Config{}, errors.New("-fault applies to the embedded reference only; unset TARGET_URL")
	}
	return acceptance.Config{Target: tc, Fault: fault}, nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
