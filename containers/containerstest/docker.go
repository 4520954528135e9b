// Package containerstest holds what tests that start containers share:
// skipping, with a one-line reason, where they cannot run.
package containerstest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/containers"
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := containers.Available(ctx); err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		t.Skip("docker not available: " + line)
	}
}
