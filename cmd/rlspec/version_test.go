package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
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

// TestMakeBuildNamesTheRevision: the binary make builds (make acceptance's)
// names the commit in `rlspec version`, also in a git worktree where the
// go command cannot stamp it.
func TestMakeBuildNamesTheRevision(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	rev, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not in a git checkout")
	}
	bin := t.TempDir()
	if out, err := exec.Command("make", "-s", "-C", "../..", "BIN="+bin, bin+"/rlspec").CombinedOutput(); err != nil {
		t.Fatalf("make: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(bin, "rlspec"), "version").Output()
	if err != nil || !strings.Contains(string(out), "revision "+strings.TrimSpace(string(rev))) {
		t.Fatalf("rlspec version: %q (%v), want revision %s", out, err, rev)
	}
}
