package main

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/rlspec/rlspec/containers"
)

// TestMain removes the reference image the tests built under their own tag.
func TestMain(m *testing.M) {
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
