package main

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rlspec/rlspec/containers"
)

// TestMain runs rlspec's main in runIn's child processes; otherwise it runs
// the tests and removes the reference image they built under their own tag.
func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
	}
	// testcontainers-go: no registry here, so no Ryuk sidecar (the child
	// processes inherit it).
	if _, ok := os.LookupEnv("TESTCONTAINERS_RYUK_DISABLED"); !ok {
		os.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	}
	// CI=true makes a run without a target exit 2 (frontdoor_test sets
	// it where that is the point); the in-process tests choose their
	// target themselves, as runIn's children do.
	os.Unsetenv("CI")
	code := m.Run()
	if refImage.tag != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if err := containers.RemoveImage(ctx, refImage.tag); err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
		cancel()
	}
	os.Exit(code)
}
