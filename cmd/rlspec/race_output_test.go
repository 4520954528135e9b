package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestRaceOutput: a violation's report explains the workload notation once,
// shows full bucket ids and a curl per request of the failing run; a clean
// run says its seed; the working directory stays empty.
func TestRaceOutput(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	t.Setenv("REPORT_DIR", t.TempDir())
	t.Setenv("CHECKS", "30")
	t.Setenv("REPEAT", "1")
	t.Setenv("SHRINK_TIME", "1s")
	var stdout, stderr bytes.Buffer
	if code := runRace(context.Background(), []string{"-fault", "check-then-act"}, &stdout, &stderr); code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout.String(), stderr.String())
	}
	out := stdout.String()
	if n := strings.Count(out, "notation:"); n != 1 || !strings.Contains(out, "fresh(cC,bB)") {
		t.Errorf("notation explained %d times:\n%s", n, out)
	}
	if strings.Contains(out, "…") {
		t.Errorf("output shortens an id:\n%s", out)
	}
	// The shrunk workload may keep only IP-fallback requests: either kind of
	// bucket id, in full.
	if !regexp.MustCompile(`bucket (dev:[0-9a-f]{64}|ip:[0-9a-f.:]+) `).MatchString(out) {
		t.Errorf("no full bucket id:\n%s", out)
	}
	ops := regexp.MustCompile(`(?m)^  #\d+ burst .*\n    \$ curl `).FindAllString(out, -1)
	if total := len(regexp.MustCompile(`(?m)^  #\d+ burst `).FindAllString(out, -1)); total == 0 || len(ops) != total {
		t.Errorf("%d of %d requests have a curl:\n%s", len(ops), total, out)
	}
	stdout.Reset()
	if code := runRace(context.Background(), []string{"-checks", "3"}, &stdout, &stderr); code != 0 {
		t.Fatalf("clean run: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	if !regexp.MustCompile(`seed \d+ \(SEED=\d+ CHECKS=3 `).MatchString(stdout.String()) {
		t.Errorf("clean run without its seed:\n%s", stdout.String())
	}
	if left, _ := os.ReadDir(cwd); len(left) > 0 {
		t.Errorf("rlspec race left %s in the working directory", left[0].Name())
	}
}
