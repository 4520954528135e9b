package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSummaryListsFailedAndSkippedScenarios(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junit.xml")
	junit := `<testsuites><testsuite name="s">
<testcase name="AC1-01 ok"></testcase>
<testcase name="AC3-01 | bad"><failure message="want 429, got 200" type="assertion">detail</failure></testcase>
<testcase name="EXT-XFF-01"><skipped message="CLIENT_IPS=xff"></skipped></testcase>
</testsuite></testsuites>`
	if err := os.WriteFile(path, []byte(junit), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"summary", "-junit", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{
		"### rlspec acceptance: 1 passed, 1 failed, 1 skipped (3 scenarios)",
		`| ❌ failed | AC3-01 \| bad | want 429, got 200 |`,
		"| ⚠️ skipped | EXT-XFF-01 | CLIENT_IPS=xff |",
		"- AC1-01 ok",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

func TestSummaryOfAMissingOrBrokenReportExits2(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.xml")
	if err := os.WriteFile(broken, []byte("<testsuites"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "none.xml"), broken} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"summary", "-junit", path}, &stdout, &stderr); code != 2 || stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), "rlspec summary: ") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", path, code, stdout.String(), stderr.String())
		}
	}
}

// TestSummarySaysWhenNoServiceWasTested: a run against the embedded
// reference says so in the summary's first line.
func TestSummarySaysWhenNoServiceWasTested(t *testing.T) {
	path := filepath.Join(t.TempDir(), "junit.xml")
	junit := `<testsuites><testsuite name="rlspec acceptance: embedded reference (fault none, sqlite)"><testcase name="AC1-01 ok"></testcase></testsuite></testsuites>`
	if err := os.WriteFile(path, []byte(junit), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"summary", "-junit", path}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	first, _, _ := strings.Cut(stdout.String(), "\n")
	if !strings.Contains(first, "1 passed") || !strings.Contains(first, "no service was tested") {
		t.Errorf("first line %q", first)
	}
}
