package main

import (
	"io"

	"github.com/rlspec/rlspec/internal/buildinfo"
)

// runVersion prints the module version, VCS revision and Go version from
// the build info (loadgen version).
func runVersion(args []string, stdout, stderr io.Writer) int {
	return buildinfo.Command("loadgen", args, stdout, stderr)
}
