package main

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/internal/testctx"
)

// TestDistLinuxAmd64 runs `make dist` for linux/amd64 only (the rule is the
// same for the four platforms) and checks what a release ships: both static
// binaries, SHA256SUMS that match them, `version` naming the release, and
// the rlspec binary passing `acceptance` against its embedded reference.
func TestDistLinuxAmd64(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("runs the linux/amd64 release binary: needs a linux/amd64 host")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make not installed")
	}
	dist := t.TempDir()
	const version = "v0.0.0-disttest"
	ctx := testctx.Context(t)
	make := exec.CommandContext(ctx, "make", "-s", "-C", "../..", "dist", "PLATFORMS=linux/amd64", "DIST="+dist, "VERSION="+version)
	if out, err := make.CombinedOutput(); err != nil {
		t.Fatalf("make dist: %v\n%s", err, out)
	}
	sums, err := os.ReadFile(filepath.Join(dist, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"rlspec-linux-amd64", "loadgen-linux-amd64"} {
		bin := filepath.Join(dist, name)
		raw, err := os.ReadFile(bin)
		if err != nil {
			t.Fatalf("make dist did not produce %s: %v", name, err)
		}
		sum := sha256.Sum256(raw)
		if !strings.Contains(string(sums), hex.EncodeToString(sum[:])+"  "+name+"\n") {
			t.Errorf("SHA256SUMS has no matching line for %s:\n%s", name, sums)
		}
		requireStatic(t, bin)
		out, err := exec.CommandContext(ctx, bin, "version").Output()
		if err != nil || !strings.Contains(string(out), " "+version+" ") {
			t.Errorf("%s version: %q, %v; want it to name %s", name, out, err, version)
		}
	}
	acc := exec.CommandContext(ctx, filepath.Join(dist, "rlspec-linux-amd64"), "acceptance")
	acc.Env = append(os.Environ(), "REPORT_DIR="+t.TempDir(), "TARGET_URL=embedded", "TARGET_IMAGE=")
	var stdout, stderr bytes.Buffer
	acc.Stdout, acc.Stderr = &stdout, &stderr
	if err := acc.Run(); err != nil {
		t.Fatalf("rlspec-linux-amd64 acceptance against the embedded reference: %v\n%s%s", err, tail(stdout.String()), stderr.String())
	}
}

// requireStatic fails unless bin is an ELF executable without an
// interpreter or dynamic section (CGO_ENABLED=0, runs FROM scratch).
func requireStatic(t *testing.T, bin string) {
	t.Helper()
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatalf("%s: %v", bin, err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("%s is dynamically linked (%s)", filepath.Base(bin), p.Type)
		}
	}
}

func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return strings.Join(lines, "\n") + "\n"
}
