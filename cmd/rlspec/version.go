package main

import (
	"context"
	"io"

	"github.com/rlspec/rlspec/internal/buildinfo"
)

// runVersion prints the module version, VCS revision and Go version from
// the build info (rlspec version).
func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	return buildinfo.Command("rlspec", args, stdout, stderr)
}
