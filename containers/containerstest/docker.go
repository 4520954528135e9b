// Package containerstest holds what tests that start containers share:
// skipping, with a one-line reason, where they cannot run.
package containerstest

import (
	"strings"
	"testing"

	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/internal/testctx"
)

// RequireDocker skips t with a one-line reason under -short (the test
// builds and starts containers) or when no Docker engine answers. Set
// TESTCONTAINERS_RYUK_DISABLED before: testcontainers-go reads its
// configuration once, at its first call.
func RequireDocker(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and starts containers")
	}
	// The binary's deadline, not a few seconds of its own: a starved
	// engine that answers late must not turn the test into a skip.
	if err := containers.Available(testctx.Context(t)); err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		t.Skip("docker not available: " + line)
	}
}
