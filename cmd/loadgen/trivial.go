package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"net"

	"github.com/rlspec/rlspec/internal/trivial"
)

// serveTrivial serves the trivial target on a loopback address until ctx
// ends, printing the URL first.
func serveTrivial(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadgen serve-trivial", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	delay := fs.Duration("delay", 0, "median of a log-normal delay before each response (0: none)")
	sigma := fs.Float64("delay-sigma", 0.5, "shape of the log-normal delay")
	seed := fs.Uint64("delay-seed", 1, "seed of the delay's random generator")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *delay < 0 || *sigma < 0 || math.IsNaN(*sigma) || math.IsInf(*sigma, 0) {
		fmt.Fprintf(stderr, "loadgen serve-trivial: -delay and -delay-sigma must be finite and not negative (got %s, %g)\n", *delay, *sigma)
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "loadgen: cannot serve: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "http://%s\n", ln.Addr())
	go func() { <-ctx.Done(); ln.Close() }()
	_ = trivial.Serve(ln, trivial.WithDelay(*delay, *sigma, *seed))
	return 0
}
