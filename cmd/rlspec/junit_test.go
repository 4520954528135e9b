package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/internal/junit"
)

func readJUnit(t *testing.T, dir string) junit.Report {
	t.Helper()
	r, err := junit.ReadFile(filepath.Join(dir, junit.FileName))
	if err != nil {
		t.Fatalf("junit.xml: %v", err)
	}
	return r
}

// TestJUnitOnExit2: every command that cannot run still writes a junit.xml
// with one error case saying why.
func TestJUnitOnExit2(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		env  map[string]string
		want string
	}{
		{"acceptance", map[string]string{"RL_LIMIT": "many"}, "RL_LIMIT"},
		{"acceptance", map[string]string{"TAGS": "@AC1&&"}, "TAGS"},
		{"acceptance", map[string]string{"TARGET_URL": "http://127.0.0.1:1"}, "could not run"},
		{"race", map[string]string{"SEED": "x"}, "SEED"},
	} {
		dir := t.TempDir()
		t.Setenv("REPORT_DIR", dir)
		for k, v := range tc.env {
			t.Setenv(k, v)
		}
		code, _, stderr := runMain(tc.cmd)
		for k := range tc.env {
			os.Unsetenv(k)
		}
		if code != 2 {
			t.Errorf("%s %v: exit %d, want 2 (%s)", tc.cmd, tc.env, code, stderr)
			continue
		}
		r := readJUnit(t, dir)
		if r.Tests != 1 || r.Errors != 1 || r.Suites[0].Cases[0].Error == nil || !strings.Contains(r.Suites[0].Cases[0].Error.Message, tc.want) {
			t.Errorf("%s %v: junit %+v", tc.cmd, tc.env, r)
		}
	}
}

// TestRaceJUnit: a race hunt writes one test case per property, the
// violated ones failed.
func TestRaceJUnit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, stdout, stderr := runIn(t, 2*time.Minute, t.TempDir(), map[string]string{"REPORT_DIR": dir},
		"race", "-fault", "check-then-act", "-checks", "30", "-repeat", "1", "-shrink-time", "1s")
	if code != 1 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	r := readJUnit(t, dir)
	if r.Tests < len(raceProperties) || r.Failures == 0 {
		t.Fatalf("junit %+v", r)
	}
	for _, c := range r.Suites[0].Cases {
		if c.Name == "no oversell" && c.Failure == nil && strings.Contains(stdout, "VIOLATION oversell") {
			t.Errorf("oversell found but its case passed")
		}
	}
}
