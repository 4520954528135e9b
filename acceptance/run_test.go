package acceptance

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"html/template"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// runOne runs the one scenario id against cfg's target (default settings,
// within limit, without reports) and returns its result; the test fails
// unless the run gives exactly one.
func runOne(t *testing.T, limit time.Duration, id string, cfg Config) steps.ScenarioResult {
	t.Helper()
	cfg.Settings = DefaultSettings()
	cfg.Settings.Tags = "@id:" + id
	rep, err := runWithin(t, limit, cfg, WithoutReports())
	if err != nil || len(rep.Results) != 1 {
		t.Fatalf("could not run %s: %v %+v", id, err, rep)
	}
	return rep.Results[0]
}

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
	tc := service.DefaultConfig()
	set := DefaultSettings()
	tc.URL = "http://" + addr
	_, err = runWithin(t, 5*time.Second, Config{Target: tc, Settings: set}, WithoutReports())
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
	tc := service.DefaultConfig()
	set := DefaultSettings()
	tc.URL = "http://" + ln.Addr().String()
	_, err = runWithin(t, 60*time.Second, Config{Target: tc, Settings: set}, WithoutReports(), WithProbeTimeout(3*time.Second))
	wantCouldNotRun(t, err, "no HTTP answer within 3s")
}

func TestTagsMatchingNothingCannotRun(t *testing.T) {
	tc := service.DefaultConfig()
	set := DefaultSettings()
	set.Tags = "@no-such-tag"
	_, err := runWithin(t, 30*time.Second, Config{Target: tc, Settings: set}, WithoutReports())
	wantCouldNotRun(t, err, "matched no scenario")
}

func TestBadSettingsCannotRun(t *testing.T) {
	tc := service.DefaultConfig()
	set := DefaultSettings()
	tc.Limit = 0
	_, err := runWithin(t, 5*time.Second, Config{Target: tc, Settings: set}, WithoutReports())
	wantCouldNotRun(t, err, "RL_LIMIT")
}

// A live target without TARGET_URL_DISABLED skips AC8 with the reason;
// STRICT=1 turns the skip into a failing run.
func TestSkipWithReasonAndStrict(t *testing.T) {
	emb := startEmbedded(t, service.DefaultConfig(), fault.None)
	for _, strict := range []bool{false, true} {
		tc := service.DefaultConfig()
		set := DefaultSettings()
		tc.URL = emb.URL
		set.Tags = clause.AC8.Tag()
		set.Strict = strict
		set.ReportDir = t.TempDir()
		var out bytes.Buffer
		rep, err := runWithin(t, 30*time.Second, Config{Target: tc, Settings: set}, WithOutput(&out))
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
			b, err := os.ReadFile(filepath.Join(set.ReportDir, f))
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

// junitDoc is what the tests read of junit.xml.
type junitDoc struct {
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Tests    int             `xml:"tests,attr"`
		Failures int             `xml:"failures,attr"`
		Cases    []junitTestCase `xml:"testcase"`
	} `xml:"testsuite"`
}

type junitTestCase struct {
	Name       string `xml:"name,attr"`
	Properties []struct {
		Name  string `xml:"name,attr"`
		Value string `xml:"value,attr"`
	} `xml:"properties>property"`
	Failure *struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	} `xml:"failure"`
}

// A failing run's reports: junit.xml parses, names are id and title (stable
// when tags change) with the tags as properties, failures carry expected vs
// actual; report.html opens with the counts and failures first and shows
// the evidence with send and receive times.
func TestReportsOfAFailingRun(t *testing.T) {
	tc := startEmbedded(t, service.DefaultConfig(), prd.NoRetryAfterName)
	set := DefaultSettings()
	set.ReportDir = t.TempDir()
	set.Tags = clause.AC3.Tag()
	var out bytes.Buffer
	rep, err := runWithin(t, 60*time.Second, Config{Target: tc, Settings: set}, WithOutput(&out))
	if err != nil {
		t.Fatal(err)
	}
	if rep.ExitCode() != 1 {
		t.Fatalf("exit %d, want 1", rep.ExitCode())
	}
	raw, err := os.ReadFile(filepath.Join(set.ReportDir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc junitDoc
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("junit.xml: %v", err)
	}
	if len(doc.Suites) != 1 || doc.Suites[0].Tests != 3 || doc.Suites[0].Failures != 1 || doc.Failures != 1 {
		t.Fatalf("junit counts: %+v", doc)
	}
	var failed *junitTestCase
	for i, c := range doc.Suites[0].Cases {
		tagged := false
		for _, p := range c.Properties {
			tagged = tagged || (p.Name == "tag" && p.Value == clause.AC3.Tag())
		}
		if !tagged || strings.Contains(c.Name, "@") {
			t.Errorf("testcase %q: tags belong in properties (%+v)", c.Name, c.Properties)
		}
		if c.Failure != nil {
			failed = &doc.Suites[0].Cases[i]
		}
	}
	if failed == nil || !strings.HasPrefix(failed.Name, "AC3-02") ||
		!strings.Contains(failed.Failure.Message, "expected Retry-After") || !strings.Contains(failed.Failure.Message, "got HTTP 429") ||
		!strings.Contains(failed.Failure.Text, "curl ") {
		t.Fatalf("failure %+v", failed)
	}
	html, err := os.ReadFile(filepath.Join(set.ReportDir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	// The clause's sentence is shown where its scenario is.
	for _, s := range []string{"<table>", "AC3-02", "FAIL", "$ curl ", "HTTP 429", `<span class="fail">1 failed</span>`, "sent ", ", received ", template.HTMLEscapeString(clause.AC3.Text()), "← fail here</b>", `<td class="actual">`, "<details class=\"pass\">"} {
		if !bytes.Contains(html, []byte(s)) {
			t.Errorf("report.html lacks %q", s)
		}
	}
	if i, j := bytes.Index(html, []byte(`<tr class="fail">`)), bytes.Index(html, []byte(`<tr class="pass">`)); i < 0 || j < 0 || i > j {
		t.Errorf("report.html does not list the failure first")
	}
	if _, err := os.Stat(filepath.Join(set.ReportDir, "cucumber.json")); err != nil {
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
	tc := service.DefaultConfig()
	set := DefaultSettings()
	tc.Limit, tc.Window = 20, 3*time.Second
	emb := startEmbedded(t, tc, fault.None)
	tc.URL, tc.DisabledURL = emb.URL, emb.DisabledURL
	set.Tags = clause.AC4.Tag() + ",@id:EXT-RESET-01,@id:AC3-03"
	rep, err := runWithin(t, time.Minute, Config{Target: tc, Settings: set}, WithoutReports())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 4 || rep.Count(steps.Passed) != 4 {
		t.Fatalf("%+v", rep.Results)
	}
}

// The library never starts a reference: without a URL it cannot run.
func TestNoTargetCannotRun(t *testing.T) {
	_, err := runWithin(t, 5*time.Second, Config{Target: service.DefaultConfig(), Settings: DefaultSettings()}, WithoutReports())
	wantCouldNotRun(t, err, "no target")
}

// STRICT fails a skip of claimed work, not a scenario of a feature the
// target does not claim.
func TestStrictIgnoresNotClaimed(t *testing.T) {
	notClaimed := steps.ScenarioResult{ID: "FAIL-2-01", Status: steps.Skipped, Reason: steps.NotClaimed + " FEATURES does not include fail-open"}
	other := steps.ScenarioResult{ID: "FAIL-1-01", Status: steps.Skipped, Reason: "no way to take the target's store away"}
	if code := (&Report{Strict: true, Results: []steps.ScenarioResult{notClaimed}}).ExitCode(); code != 0 {
		t.Errorf("not claimed, strict: exit %d, want 0", code)
	}
	if code := (&Report{Strict: true, Results: []steps.ScenarioResult{notClaimed, other}}).ExitCode(); code != 1 {
		t.Errorf("a skip of claimed work, strict: exit %d, want 1", code)
	}
}

// A service at 20 per 3 s run with the defaults, and a service with a
// one-hour window run with RL_WINDOW=3s, cannot run: one sentence naming
// the variable and the value the service showed, not 25 failures.
func TestSettingsThatDoNotMatchTheServiceCannotRun(t *testing.T) {
	for _, c := range []struct {
		name     string
		limit    int
		window   time.Duration
		tcLimit  int
		tcWindow time.Duration
		want     string
	}{
		{"limit", 20, 3 * time.Second, 500, time.Hour, "RL_LIMIT=500 but the service answers X-RateLimit-Limit: 20 on the first request of a fresh bucket; set RL_LIMIT=20"},
		{"window", 20, time.Hour, 20, 3 * time.Second, "RL_WINDOW=3s but the service answers X-RateLimit-Reset: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := service.DefaultConfig()
			set := DefaultSettings()
			tc.URL = faulttest.Start(t, fault.None, func(cfg *fakeserver.Config) { cfg.Limit, cfg.Window = c.limit, c.window })
			tc.Limit, tc.Window = c.tcLimit, c.tcWindow
			var out strings.Builder
			_, err := runWithin(t, 15*time.Second, Config{Target: tc, Settings: set}, WithoutReports(), WithOutput(&out))
			wantCouldNotRun(t, err, c.want)
			if strings.Contains(out.String(), "FAIL") {
				t.Errorf("scenarios ran:\n%s", out.String())
			}
		})
	}
}
