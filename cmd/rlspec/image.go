package main

import (
	"context"
	"fmt"
	"io"
)

// runImage is not built yet.
func runImage(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "rlspec image: not implemented yet")
	return 2
}
