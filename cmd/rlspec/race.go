package main

import (
	"context"
	"fmt"
	"io"
)

// runRace is not built yet.
func runRace(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fmt.Fprintln(stderr, "rlspec race: not implemented yet")
	return 2
}
