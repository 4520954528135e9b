package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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
