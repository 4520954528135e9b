package main

import (
	"context"
	"fmt"
	"io"
)

// runAcceptance is not built yet.
func runAcceptance(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "rlspec acceptance: not implemented yet")
	return 2
}
