package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/internal/pgcluster"
)

// needPostgres skips with one line when PostgreSQL is not installed.
func needPostgres(t *testing.T) {
	t.Helper()
	if _, err := pgcluster.BinDir(); err != nil {
		t.Skip(err)
	}
}

// TestAcceptanceSQLEmbedded runs the fixed-window suite on spec/004's
// function in a throwaway cluster: the shipped function passes (FW-5, the
// headers it does not send, SKIPPED with the reason), each faulty variant
// fails its clause, in one run: no-retry is a race, which FW-4-01 races on
// three fresh keys at once (one batch alone missed it in two CI checks
// under -race).
func TestAcceptanceSQLEmbedded(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	for _, c := range []struct {
		fault  string
		code   int
		failed []string
	}{
		{"", 0, nil},
		{"no-retry", 1, []string{"FW-4-01"}},
		{"reset-race", 1, []string{"FW-3-02"}},
	} {
		t.Run("fault="+c.fault, func(t *testing.T) {
			code, out, errOut := runCLI(t, 60*time.Second, map[string]string{"REPORT_DIR": t.TempDir()},
				"-target-sql", "check_rate_limit", "-target-db", "embedded", "-rl-limit", "5", "-rl-window", "1m", "-fault", c.fault)
			if code != c.code {
				t.Fatalf("exit %d, want %d\n%s\n%s", code, c.code, out, errOut)
			}
			if !strings.Contains(out, `SKIPPED FW-5-01 [FW-5] headers`) || !strings.Contains(out, `DIALECT=status`) {
				t.Errorf("FW-5-01 not skipped with its reason:\n%s", out)
			}
			for _, id := range c.failed {
				if !strings.Contains(out, "FAIL "+id) {
					t.Errorf("%s did not fail:\n%s", id, out)
				}
			}
			if c.code == 0 && strings.Contains(out, "FAIL") {
				t.Errorf("the shipped function failed:\n%s", out)
			}
		})
	}
}

// TestSQLSettingsExit2 checks that TARGET_SQL's impossible settings are
// refused with one sentence before anything starts.
func TestSQLSettingsExit2(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"TARGET_SQL": "check_rate_limit"}, "needs TARGET_DB=postgres://"},
		{map[string]string{"TARGET_SQL": "check_rate_limit", "TARGET_DB": "sqlite:/tmp/x.db"}, "needs a postgres:// TARGET_DB"},
		{map[string]string{"TARGET_SQL": "check_rate_limit", "TARGET_DB": "embedded", "PROFILE": "sliding-log"}, "profile fixed-window, not PROFILE=sliding-log"},
		{map[string]string{"TARGET_SQL": "check_rate_limit", "TARGET_DB": "embedded", "WINDOW_ALIGN": "epoch"}, "WINDOW_ALIGN=epoch"},
		{map[string]string{"TARGET_SQL": "check_rate_limit", "TARGET_DB": "postgres://h/db", "FAULT": "no-retry"}, "needs TARGET_DB=embedded"},
		{map[string]string{"TARGET_DB": "embedded"}, "needs TARGET_SQL"},
	} {
		t.Run(c.want, func(t *testing.T) {
			args := []string{}
			if f, ok := c.env["FAULT"]; ok {
				args = append(args, "-fault", f)
				delete(c.env, "FAULT")
			}
			c.env["REPORT_DIR"] = t.TempDir()
			code, _, stderr := runCLI(t, 5*time.Second, c.env, args...)
			if code != 2 || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, stderr, c.want)
			}
		})
	}
}

// TestRaceSQLEmbedded: rlspec race finds the no-retry fault and passes the
// shipped function.
func TestRaceSQLEmbedded(t *testing.T) {
	t.Parallel()
	needPostgres(t)
	for _, c := range []struct {
		fault string
		code  int
		want  string
	}{{"", 0, "no violation in 20 workloads"}, {"no-retry", 1, "VIOLATION"}} {
		dir := t.TempDir()
		code, stdout, stderr := runIn(t, 2*time.Minute, "", nil, "race", "-target-sql", "check_rate_limit", "-target-db", "embedded",
			"-checks", "20", "-repeat", "3", "-fault", c.fault, "-report-dir", dir)
		if code != c.code || !strings.Contains(stdout, c.want) {
			t.Errorf("fault %q: exit %d, want %d and %q\n%s\n%s", c.fault, code, c.code, c.want, stdout, stderr)
		}
		xml, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
		if err != nil || strings.Contains(string(xml), "<failure") != (c.code == 1) {
			t.Errorf("fault %q: junit.xml %v:\n%s", c.fault, err, xml)
		}
	}
}
