package acceptance

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/steps"
	"github.com/rlspec/rlspec/target"
)

// runWithin runs the suite and fails the test if it has not returned
// within limit: the harness must never hang.
func runWithin(t *testing.T, limit time.Duration, cfg Config, opts ...Option) (*Report, error) {
	t.Helper()
	type result struct {
		rep *Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := Run(context.Background(), cfg, opts...)
		done <- result{rep, err}
	}()
	timer := time.NewTimer(limit)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.rep, r.err
	case <-timer.C:
		t.Fatalf("Run did not return within %s", limit)
		return nil, nil
	}
}

func wantCouldNotRun(t *testing.T, err error, contains string) {
	t.Helper()
	var cnr *CouldNotRun
	if !errors.As(err, &cnr) {
		t.Fatalf("err = %v, want *CouldNotRun", err)
	}
	if !strings.Contains(cnr.Reason, contains) {
		t.Fatalf("reason %q does not say %q", cnr.Reason, contains)
	}
}

func TestClosedPortCannotRun(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	tc := target.DefaultConfig()
	tc.URL = "http://" + addr
	_, err = runWithin(t, 5*time.Second, Config{Target: tc}, WithoutReports())
	wantCouldNotRun(t, err, "cannot be reached")
}

func TestSilentTargetCannotRun(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	held := make(chan net.Conn, 16)
	go func() { // accept, read nothing, answer nothing
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held <- c
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		for len(held) > 0 {
			(<-held).Close()
		}
	})
	tc := target.DefaultConfig()
	tc.URL = "http://" + ln.Addr().String()
	_, err = runWithin(t, 60*time.Second, Config{Target: tc}, WithoutReports(), WithProbeTimeout(3*time.Second))
	wantCouldNotRun(t, err, "no HTTP answer within 3s")
}

func TestTagsMatchingNothingCannotRun(t *testing.T) {
	tc := target.DefaultConfig()
	tc.Tags = "@no-such-tag"
	_, err := runWithin(t, 30*time.Second, Config{Target: tc}, WithoutReports())
	wantCouldNotRun(t, err, "matched no scenario")
}

func TestBadSettingsCannotRun(t *testing.T) {
	tc := target.DefaultConfig()
	tc.Limit = 0
	_, err := runWithin(t, 5*time.Second, Config{Target: tc}, WithoutReports())
	wantCouldNotRun(t, err, "RL_LIMIT")
}

// A live target without TARGET_URL_DISABLED skips AC8 with the reason;
// STRICT=1 turns the skip into a failing run.
func TestSkipWithReasonAndStrict(t *testing.T) {
	emb, err := StartEmbedded(target.DefaultConfig(), fakeserver.FaultNone)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emb.Close() })
	for _, strict := range []bool{false, true} {
		tc := target.DefaultConfig()
		tc.URL = emb.Config.URL
		tc.Tags = "@AC8"
		tc.Strict = strict
		tc.ReportDir = t.TempDir()
		var out bytes.Buffer
		rep, err := runWithin(t, 30*time.Second, Config{Target: tc}, WithOutput(&out))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Count(steps.Skipped) != 2 || len(rep.Results) != 2 {
			t.Fatalf("strict=%v: %d results, %d skipped", strict, len(rep.Results), rep.Count(steps.Skipped))
		}
		want := 0
		if strict {
			want = 1
		}
		if rep.ExitCode() != want {
			t.Errorf("strict=%v: exit %d, want %d", strict, rep.ExitCode(), want)
		}
		for _, f := range []string{"junit.xml", "report.html"} {
			b, err := os.ReadFile(filepath.Join(tc.ReportDir, f))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Contains(b, []byte("TARGET_URL_DISABLED is not set")) {
				t.Errorf("%s does not carry the skip reason", f)
			}
		}
		if !strings.Contains(out.String(), "SKIPPED (TARGET_URL_DISABLED is not set") {
			t.Errorf("console table lacks the skip reason:\n%s", out.String())
		}
	}
}

// A failing run's reports: junit.xml parses, names carry clause tags and
// failures carry expected vs actual; report.html shows the evidence.
func TestReportsOfAFailingRun(t *testing.T) {
	tc := target.DefaultConfig()
	tc.ReportDir = t.TempDir()
	tc.Tags = "@AC3"
	var out bytes.Buffer
	rep, err := runWithin(t, 60*time.Second, Config{Target: tc, Fault: fakeserver.FaultNoRetryAfter}, WithOutput(&out))
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 1 {
		t.Fatalf("exit %d, want 1", rep.ExitCode())
	}
	raw, err := os.ReadFile(filepath.Join(tc.ReportDir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("junit.xml: %v", err)
	}
	if len(doc.Suites) != 1 || doc.Suites[0].Tests != 3 || doc.Suites[0].Failures != 1 || doc.Failures != 1 {
		t.Fatalf("junit counts: %+v", doc)
	}
	var failed *junitCase
	for i, c := range doc.Suites[0].Cases {
		if !strings.Contains(c.Name, "@AC3") {
			t.Errorf("testcase %q lacks its clause tag", c.Name)
		}
		if c.Failure != nil {
			failed = &doc.Suites[0].Cases[i]
		}
	}
	if failed == nil || !strings.HasPrefix(failed.Name, "RL-AC3-02") ||
		!strings.Contains(failed.Failure.Message, "expected Retry-After") || !strings.Contains(failed.Failure.Message, "got HTTP 429") ||
		!strings.Contains(failed.Failure.Text, "curl ") {
		t.Fatalf("failure %+v", failed)
	}
	html, err := os.ReadFile(filepath.Join(tc.ReportDir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<table>", "RL-AC3-02", "FAIL", "$ curl ", "HTTP 429"} {
		if !bytes.Contains(html, []byte(s)) {
			t.Errorf("report.html lacks %q", s)
		}
	}
	if _, err := os.Stat(filepath.Join(tc.ReportDir, "cucumber.json")); err != nil {
		t.Error(err)
	}
	for _, s := range []string{"expected: Retry-After", "request:  curl -sS -i -X POST", "1 failed"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("console lacks %q:\n%s", s, out.String())
		}
	}
}

// Without TARGET_DB, windows are waited out (up to MAX_WAIT): against a
// live 3 s window the AC4 scenarios and the 2 s-apart samples run and pass.
func TestWindowWaitedOutWithoutDB(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for real 3 s windows")
	}
	tc := target.DefaultConfig()
	tc.Limit, tc.Window = 20, 3*time.Second
	emb, err := StartEmbedded(tc, fakeserver.FaultNone)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emb.Close() })
	tc.URL, tc.DisabledURL = emb.Config.URL, emb.Config.DisabledURL
	tc.Tags = "@AC4,@id:RL-EXT-RESET-01,@id:RL-AC3-03"
	rep, err := runWithin(t, time.Minute, Config{Target: tc}, WithoutReports())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 4 || rep.Count(steps.Passed) != 4 {
		t.Fatalf("%+v", rep.Results)
	}
}
