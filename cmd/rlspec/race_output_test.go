package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestRaceOutput: a violation's report explains the workload notation once,
// shows full bucket ids and a curl per request of the failing run; a clean
// run says its seed; the working directory stays empty.
func TestRaceOutput(t *testing.T) {
	t.Parallel()
	cwd := t.TempDir()
	env := map[string]string{"REPORT_DIR": t.TempDir(), "CHECKS": "30", "REPEAT": "1", "SHRINK_TIME": "1s"}
	code, out, stderr := runIn(t, 2*time.Minute, cwd, env, "race", "-fault", "check-then-act")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, out, stderr)
	}
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
	code, stdout, stderr := runIn(t, 2*time.Minute, cwd, env, "race", "-checks", "3")
	if code != 0 {
		t.Fatalf("clean run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !regexp.MustCompile(`seed \d+ \(SEED=\d+ CHECKS=3 `).MatchString(stdout) {
		t.Errorf("clean run without its seed:\n%s", stdout)
	}
	if left, _ := os.ReadDir(cwd); len(left) > 0 {
		t.Errorf("rlspec race left %s in the working directory", left[0].Name())
	}
}
