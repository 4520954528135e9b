package main

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/profile"
)

// runCLI runs the acceptance subcommand in a child process with env set
// (runIn), failing the test if it does not return within limit.
func runCLI(t *testing.T, limit time.Duration, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	return runIn(t, limit, "", env, append([]string{"acceptance"}, args...)...)
}

func TestAcceptanceClosedPortExits2(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	code, _, stderr := runCLI(t, 5*time.Second, map[string]string{"TARGET_URL": url, "REPORT_DIR": t.TempDir()})
	if code != 2 || !strings.Contains(stderr, "cannot be reached") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestAcceptanceSilentTargetExits2(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns <- c // held open, never answered
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for len(conns) > 0 {
			(<-conns).Close()
		}
	})
	code, _, stderr := runCLI(t, 60*time.Second, map[string]string{"TARGET_URL": "http://" + ln.Addr().String(), "REPORT_DIR": t.TempDir()})
	if code != 2 || !strings.Contains(stderr, "no HTTP answer") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestAcceptanceExitStatus(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want int
	}{
		{"reference passes", map[string]string{"TAGS": "@AC1,@AC3", "REPORT_DIR": dir}, nil, 0},
		{"fault fails", map[string]string{"TAGS": "@AC3", "REPORT_DIR": dir}, []string{"-fault", "no-retry-after"}, 1},
		{"no scenario", map[string]string{"TAGS": "@nothing", "REPORT_DIR": dir}, nil, 2},
		{"bad setting", map[string]string{"RL_LIMIT": "many", "REPORT_DIR": dir}, nil, 2},
		{"unknown fault", map[string]string{"REPORT_DIR": dir}, []string{"-fault=nope"}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, 60*time.Second, tc.env, tc.args...)
			if code != tc.want {
				t.Fatalf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.want, stdout, stderr)
			}
		})
	}
}

// TestAcceptanceTagExpressions: Cucumber tag expressions select scenarios;
// a malformed one (godog panicked on "@AC1&&") is exit 2 with one sentence.
func TestAcceptanceTagExpressions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, 60*time.Second, map[string]string{"TAGS": "(@AC1 or @AC2) and not @extended", "REPORT_DIR": dir})
	if code != 0 || !strings.Contains(stdout, "AC1-01") || !strings.Contains(stdout, "AC2-01") || strings.Contains(stdout, "AC3-0") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, bad := range []string{"@AC1&&", "@AC1 and", "not", "@AC1 @AC2"} {
		code, _, stderr := runCLI(t, 10*time.Second, map[string]string{"TAGS": bad, "REPORT_DIR": dir})
		if code != 2 || !strings.Contains(stderr, "TAGS") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("TAGS=%q: exit %d, stderr %q", bad, code, stderr)
		}
	}
}

func TestAcceptanceProfileSettingsExit2(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		env  map[string]string
		want string
	}{
		"unknown":   {map[string]string{"PROFILE": "gcra-queue"}, "PROFILE"},
		"feature":   {map[string]string{"PROFILE": "sliding-log", "FEATURES": "teleport"}, "teleport"},
		"not-taken": {map[string]string{"PROFILE": "sliding-log", "WINDOW_ALIGN": "epoch"}, "WINDOW_ALIGN does not apply"},
		"tb-needs":  {map[string]string{"PROFILE": "token-bucket", "TARGET_URL": "http://127.0.0.1:1"}, "needs RL_BURST and RL_RATE"},
		"tb-rate":   {map[string]string{"PROFILE": "token-bucket", "RL_RATE": "fast"}, "RL_RATE"},
		"prd-burst": {map[string]string{"RL_BURST": "5"}, "RL_BURST does not apply to PROFILE=prd"},
	} {
		t.Run(name, func(t *testing.T) {
			tc.env["REPORT_DIR"] = t.TempDir()
			code, _, stderr := runCLI(t, 5*time.Second, tc.env)
			if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Fatalf("exit %d, stderr %q", code, stderr)
			}
		})
	}
}

func TestAcceptanceAllNeedsTheEmbeddedReference(t *testing.T) {
	t.Parallel()
	code, _, stderr := runCLI(t, 5*time.Second, map[string]string{"PROFILE": "all", "TARGET_URL": "http://127.0.0.1:1", "REPORT_DIR": t.TempDir()})
	if code != 2 || !strings.Contains(stderr, "PROFILE=all") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

// PROFILE=all runs every profile against the embedded reference in one
// run: one conformance.json with each profile's core passing (or partial,
// never failing). Each profile takes the sizes the embedded reference
// gives it (service.SizedForEmbedded): one RL_WINDOW for all would leave
// the sliding-window counter's SWC-2 undecidable below 5 s.
func TestAcceptanceAllProfiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, 60*time.Second, map[string]string{"PROFILE": "all", "REPORT_DIR": dir})
	if code != 0 && !(code == 1 && onlyStarved(t, dir)) {
		t.Fatalf("exit %d; the lines that are not passes:\n%s\n%s", code, notPassed(stdout), stderr)
	}
	b, err := os.ReadFile(filepath.Join(dir, "conformance.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Profile  string `json:"profile"`
		Profiles []struct {
			Profile string `json:"profile"`
			Core    struct {
				Result string `json:"result"`
				Passed int    `json:"passed"`
			} `json:"core"`
		} `json:"profiles"`
	}
	if err := json.Unmarshal(b, &c); err != nil || c.Profile != "all" || len(c.Profiles) != len(profile.Names()) {
		t.Fatalf("conformance.json: %s (%v)", b, err)
	}
	for _, p := range c.Profiles {
		// "partial" when a loaded machine broke a time assumption twice
		if p.Core.Result == "fail" || p.Core.Passed == 0 {
			t.Errorf("%s: %+v", p.Profile, p.Core)
		}
	}
}

// onlyStarved reports whether the run in dir failed nothing and left
// scenarios undecided only because a starved machine broke their time
// assumptions: exit 1 then is the suite refusing a verdict, as it must,
// not a defect of the reference.
func onlyStarved(t *testing.T, dir string) bool {
	t.Helper()
	r := readJUnit(t, dir)
	if r.Failures != 0 || r.Errors != 0 {
		return false
	}
	starved := 0
	for _, s := range r.Suites {
		for _, c := range s.Cases {
			if c.Skipped != "" && brokenAssumption(c.Skipped) {
				starved++
			}
		}
	}
	if starved > 0 {
		t.Logf("%d scenarios could not decide on this starved machine (their time assumptions broke): no verdict, as the suite must", starved)
	}
	return starved > 0
}

// notPassed is a run's output without its passing scenarios: what a
// failed test shows, short enough for a CI log's excerpt to keep.
func notPassed(out string) string {
	var keep []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, " PASS ") && !strings.HasSuffix(strings.TrimSpace(l), " PASS") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
