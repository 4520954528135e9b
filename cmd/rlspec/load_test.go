package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/yaml"
)

// TestLoadWithoutLoadgen: with no loadgen beside rlspec nor on PATH,
// rlspec load exits 2 with one sentence saying how to get it.
func TestLoadWithoutLoadgen(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, stdout, stderr := runMain("load", "-h")
	if code != 2 || stdout != "" || !strings.Contains(stderr, "the loadgen command is neither beside rlspec nor on PATH") || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("exit %d\nstdout %q\nstderr %q", code, stdout, stderr)
	}
}

// TestLoadFindsLoadgenBeside: the loadgen beside rlspec wins over PATH's.
func TestLoadFindsLoadgenBeside(t *testing.T) {
	dir := t.TempDir()
	beside := filepath.Join(dir, "loadgen")
	if err := os.WriteFile(beside, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	self := func() (string, error) { return filepath.Join(dir, "rlspec"), nil }
	onPath := func(string) (string, error) { return "/elsewhere/loadgen", nil }
	if got, err := loadgenBinary(self, onPath); err != nil || got != beside {
		t.Errorf("%q, %v; want %q", got, err, beside)
	}
	if got, err := loadgenBinary(func() (string, error) { return "/nowhere/rlspec", nil }, onPath); err != nil || got != "/elsewhere/loadgen" {
		t.Errorf("%q, %v; want PATH's", got, err)
	}
}

// TestLoadEmitK8s: rlspec load -emit k8s is loadgen run's manifest, a
// batchv1.Job decoded strictly; loadgen's exit status passes through.
func TestLoadEmitK8s(t *testing.T) {
	if testing.Short() {
		t.Skip("builds loadgen")
	}
	dir := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "loadgen"), "github.com/rlspec/rlspec/cmd/loadgen")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build loadgen: %v\n%s", err, out)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("REPORT_DIR", t.TempDir())
	code, stdout, stderr := runMain("load", "-emit", "k8s", "-generators", "3", "-target-url", "http://limiter:8080")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict([]byte(stdout), &job); err != nil {
		t.Fatalf("strict decode: %v\n%s", err, stdout)
	}
	if *job.Spec.Completions != 3 || *job.Spec.Parallelism != 3 || *job.Spec.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("spec %+v", job.Spec)
	}
	if code, _, stderr := runMain("load", "-generators", "0"); code != 2 || !strings.Contains(stderr, `GENERATORS="0"`) {
		t.Errorf("loadgen's exit 2 not passed through: %d %q", code, stderr)
	}
}
