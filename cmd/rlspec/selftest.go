package main

import (
	"context"
	"fmt"
	"io"
)

// runSelftest is not built yet.
func runSelftest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "rlspec selftest: not implemented yet")
	return 2
}
