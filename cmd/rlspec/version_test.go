package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestVersionSubcommand(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"version"}, &stdout, &stderr)
	if code != 0 || !strings.HasPrefix(stdout.String(), "rlspec ") || !strings.Contains(stdout.String(), "github.com/rlspec/rlspec") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
}
