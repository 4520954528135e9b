package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/fault/prd"
)

// secretHeaders carries three credentials and one ordinary header.
const secretHeaders = "Authorization: Bearer s3cr3t-auth;X-Api-Key: s3cr3t-key;Cookie: sid=s3cr3t-cookie;X-Trace: visible-trace"

// assertNoSecret fails if any output or any file under dir holds a secret.
func assertNoSecret(t *testing.T, dir string, outputs ...string) {
	t.Helper()
	for i, out := range outputs {
		if strings.Contains(out, "s3cr3t") {
			t.Errorf("output %d shows a credential:\n%s", i, out)
		}
	}
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		if bytes.Contains(b, []byte("s3cr3t")) {
			t.Errorf("%s shows a credential", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Errorf("no report file under %s", dir)
	}
}

func TestAcceptanceKeepsCredentials(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"TAGS": "@AC3", "REPORT_DIR": dir, "TARGET_HEADERS": secretHeaders}
	code, stdout, stderr := runCLI(t, 120e9, env, "-fault", "no-retry-after")
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	assertNoSecret(t, dir, stdout, stderr)
	for _, want := range []string{`-H "Authorization: $RLSPEC_HEADER_AUTHORIZATION"`, `-H "X-Api-Key: $RLSPEC_HEADER_X_API_KEY"`, `-H "Cookie: $RLSPEC_HEADER_COOKIE"`, `'X-Trace: visible-trace'`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %s:\n%s", want, stdout)
		}
	}
	_, helpOut, helpErr := runCLI(t, 10e9, env, "-h")
	assertNoSecret(t, dir, helpOut, helpErr)
}

func TestRaceKeepsCredentials(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	env := map[string]string{"REPORT_DIR": dir, "TARGET_HEADERS": secretHeaders, "FAULT": "check-then-act", "CHECKS": "20", "REPEAT": "2", "SHRINK_TIME": "2s"}
	code, stdout, stderr := runIn(t, 2*time.Minute, "", env, "race")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a violation)\n%s\n%s", code, stdout, stderr)
	}
	assertNoSecret(t, dir, stdout, stderr)
	if want := `TARGET_HEADERS="Authorization: $RLSPEC_HEADER_AUTHORIZATION;`; !strings.Contains(stdout, want) {
		t.Errorf("replay command lacks %s:\n%s", want, stdout)
	}
}

// TestAcceptanceKeepsURLCredentials: user info and query-string secrets of
// TARGET_URL appear in no output of a real run against a local server —
// stdout, stderr, junit.xml, cucumber.json, report.html, conformance.json,
// the curl reproductions —, nor when the target cannot be reached.
func TestAcceptanceKeepsURLCredentials(t *testing.T) {
	t.Parallel()
	srv, err := fakeserver.Start(faulttest.Config(t, prd.NoRetryAfterName, func(c *fakeserver.Config) { c.Limit = 5 }), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	host := strings.TrimPrefix(srv.URL, "http://")
	target := "http://rluser:s3cr3t-pass@" + host + "/v1/ride_summary?api_key=s3cr3t-query&page=1"
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, 2*time.Minute, map[string]string{"TAGS": "@AC3", "RL_LIMIT": "5", "REPORT_DIR": dir, "TARGET_URL": target})
	if code != 1 {
		t.Fatalf("exit %d, want 1\n%s\n%s", code, stdout, stderr)
	}
	assertNoSecret(t, dir, stdout, stderr)
	for _, want := range []string{"http://rluser:xxxxx@" + host + "/v1/ride_summary?api_key=xxxxx&page=1, profile prd",
		`"http://rluser:${RLSPEC_URL_PASSWORD}@` + host + `/v1/ride_summary?api_key=${RLSPEC_QUERY_API_KEY}&page=1"`,
		"export RLSPEC_URL_PASSWORD, RLSPEC_QUERY_API_KEY"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %s:\n%s", want, stdout)
		}
	}
	for _, f := range []string{"junit.xml", "cucumber.json", "report.html", "conformance.json"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("no %s: %v", f, err)
		}
		if !strings.Contains(stdout, filepath.Join(dir, f)) {
			t.Errorf("the reports line does not list %s:\n%s", f, stdout)
		}
	}
	closed := t.TempDir()
	_ = srv.Close()
	code, stdout, stderr = runCLI(t, time.Minute, map[string]string{"REPORT_DIR": closed, "TARGET_URL": target})
	if code != 2 || !strings.Contains(stderr, "cannot be reached") {
		t.Fatalf("closed: exit %d, want 2\n%s\n%s", code, stdout, stderr)
	}
	assertNoSecret(t, closed, stdout, stderr)
}

// The race replay command and fail-file key refer to TARGET_URL's
// credentials instead of showing them (TARGET_DB's password masked).
func TestRaceReplayKeepsURLCredentials(t *testing.T) {
	env := map[string]string{"TARGET_URL": "http://u:s3cr3t@127.0.0.1:9/?token=s3cr3t"}
	cfg, err := raceSettings(nil, envflag.Map(env), nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.set["TARGET_DB"] = "postgres://u:s3cr3t@h/db"
	cmd, key := replayCommand(cfg, 7), raceFailKey(cfg, nil)
	for _, s := range []string{cmd, key} {
		if strings.Contains(s, "s3cr3t") {
			t.Errorf("shows a credential: %s", s)
		}
	}
	if want := `TARGET_URL="http://u:${RLSPEC_URL_PASSWORD}@127.0.0.1:9/?token=${RLSPEC_QUERY_TOKEN}"`; !strings.Contains(cmd, want) {
		t.Errorf("replay %s lacks %s", cmd, want)
	}
}
