package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"

	"github.com/rlspec/rlspec/internal/trivial"
)

// serveTrivial serves the trivial target on a loopback address until ctx
// ends, printing the URL first.
func serveTrivial(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("loadgen serve-trivial", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "loadgen: cannot serve: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "http://%s\n", ln.Addr())
	go func() { <-ctx.Done(); ln.Close() }()
	_ = trivial.Serve(ln)
	return 0
}
