package selftest

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/fault/fixedwindow"
	"github.com/rlspec/rlspec/fault/leakybucket"
	"github.com/rlspec/rlspec/fault/penalties"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/fault/slidinglog"
	"github.com/rlspec/rlspec/fault/swcounter"
	"github.com/rlspec/rlspec/fault/tokenbucket"
	"github.com/rlspec/rlspec/internal/overload"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

func TestExpectationsCoverEveryFault(t *testing.T) {
	exps, err := Expectations()
	if err != nil {
		t.Fatal(err)
	}
	all := faults.All()
	if len(exps) != len(all) {
		t.Fatalf("%d expectations for %d faults", len(exps), len(all))
	}
	for i, e := range exps {
		if e.Fault != all[i].Name {
			t.Errorf("row %d is %s, want %s (order of faults.All)", i, e.Fault, all[i].Name)
		}
		if e.Race && e.Replicas < 1 {
			t.Errorf("%s: race expectation without replicas", e.Fault)
		}
	}
	// The concurrency faults are the race hunter's (the profiles' ones
	// the suite's too), the rest the suite's.
	race := map[fault.Name]int{
		prd.CheckThenActName: 1, prd.ConcurrentReplaysName: 1,
		prd.ResetRaceName: 1, fault.ProcessCache: 2,
		slidinglog.SLCheckThenRecord: 1, fixedwindow.FWInsertRace: 1, fixedwindow.FWBoundaryRace: 1, tokenbucket.TBLostUpdate: 1,
		swcounter.SWCLostUpdate: 1, leakybucket.LBLostUpdate: 1, penalties.PNLostViolation: 1,
	}
	for _, e := range exps {
		want, isRace := race[e.Fault]
		if e.Race != isRace {
			t.Errorf("%s: Race = %v, want %v", e.Fault, e.Race, isRace)
		}
		if isRace && e.Replicas < want {
			t.Errorf("%s: %d replicas, want at least %d", e.Fault, e.Replicas, want)
		}
		if !isRace && len(e.Scenarios) == 0 {
			f, _ := faults.Lookup(e.Fault)
			if awaiting, err := acceptance.AwaitingScenarios(f.Profile, f.Align, f.Breaks...); err != nil || !awaiting {
				t.Errorf("%s: no acceptance scenario required, yet scenarios check %s (%v)", e.Fault, f.Breaks, err)
			}
		}
	}
}

// TestVerdicts: the matrix's own verdict logic fails when it must.
func TestVerdicts(t *testing.T) {
	okRef := ReferenceRun{N: 1, raceChecks: 10, Acceptance: AcceptanceResult{Passed: 35}, Race: RaceResult{Ran: true, Checks: 10}}
	caught := Row{Expectation: Expectation{Fault: prd.OffByOneName, Detectors: fault.Detectors{Scenarios: []string{"AC1-01"}}},
		Acceptance: AcceptanceResult{Failed: 1, FailedIDs: []string{"AC1-01"}}}
	for _, tc := range []struct {
		name   string
		m      Matrix
		ok     bool
		output string
	}{
		{"all good", Matrix{Reference: []ReferenceRun{okRef}, Rows: []Row{caught}}, true, "selftest PASS: 1/1 faults caught"},
		{"reference skipped a scenario", Matrix{Reference: []ReferenceRun{func() ReferenceRun {
			r := okRef
			r.Acceptance.Skipped, r.Acceptance.SkippedIDs = 1, []string{"AC4-01"}
			return r
		}()}, Rows: []Row{caught}}, false, "reference run 1: skipped AC4-01"},
		{"reference gave no verdict on a broken time assumption", Matrix{Reference: []ReferenceRun{func() ReferenceRun {
			r := okRef
			r.Acceptance.Skipped, r.Acceptance.SkippedIDs = 1, []string{"FW-3-03"}
			r.Acceptance.SkipReasons = map[string]string{"FW-3-03": scenario.TimeSkip + " twice: first …; then …"}
			return r
		}()}, Rows: []Row{caught}}, true, "reference run 1: skipped FW-3-03: " + scenario.TimeSkip},
		{"reference failed a scenario", Matrix{Reference: []ReferenceRun{func() ReferenceRun {
			r := okRef
			r.Acceptance.Failed, r.Acceptance.FailedIDs = 1, []string{"MI-1-02"}
			r.Acceptance.FailReasons = map[string]string{"MI-1-02": "[MI-1] a ride: expected 429\ngot HTTP 200"}
			return r
		}()}, Rows: []Row{caught}}, false, "reference run 1: failed MI-1-02: [MI-1] a ride: expected 429\n    got HTTP 200"},
		{"reference race ran short", Matrix{Reference: []ReferenceRun{func() ReferenceRun {
			r := okRef
			r.Race.Checks = 3
			return r
		}()}}, false, "selftest FAIL"},
		{"race violation on the reference", Matrix{Reference: []ReferenceRun{func() ReferenceRun {
			r := okRef
			r.Race.Found, r.Race.Class = true, "oversell"
			return r
		}()}}, false, "race hunt found oversell"},
		{"fault survives", Matrix{Reference: []ReferenceRun{okRef}, Rows: []Row{{Expectation: Expectation{Fault: prd.NoResetName, Detectors: fault.Detectors{Scenarios: []string{"AC4-01"}}}, Missed: []string{"AC4-01"}}}}, false, "SURVIVED"},
		{"race fault caught only by the suite", Matrix{Reference: []ReferenceRun{okRef}, Rows: []Row{{
			Expectation: Expectation{Fault: prd.CheckThenActName, Detectors: fault.Detectors{Race: true, Replicas: 1}},
			Acceptance:  AcceptanceResult{Failed: 2, FailedIDs: []string{"AC7-01", "AC7-02"}},
			Race:        RaceResult{Ran: true, Replicas: 1, Checks: 10},
		}}}, false, "the race hunt found nothing in 10 workloads"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.m.OK(); got != tc.ok {
				t.Errorf("OK() = %v, want %v", got, tc.ok)
			}
			var buf bytes.Buffer
			tc.m.Write(&buf)
			if !strings.Contains(buf.String(), tc.output) {
				t.Errorf("output lacks %q:\n%s", tc.output, buf.String())
			}
		})
	}
}

func TestOptionsRejectBadValues(t *testing.T) {
	for name, o := range map[string]Option{
		"runs 0":          WithRuns(0),
		"checks 0":        WithRaceChecks(0),
		"parallel 0":      WithParallel(0),
		"reference fault": WithFaults(fault.None),
		"unknown fault":   WithFaults("no-such-fault"),
		"no profile":      WithProfiles(),
		"unknown profile": WithProfiles("no-such-profile"),
	} {
		if _, err := Run(context.Background(), o); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// A fault outside the profiles selected is refused before anything runs.
func TestProfilesRefuseAForeignFault(t *testing.T) {
	_, err := Run(context.Background(), WithProfiles(profile.SlidingLog), WithFaults(prd.OffByOneName))
	if err == nil || !strings.Contains(err.Error(), "belongs to profile prd") {
		t.Fatalf("err = %v, want the fault's profile named", err)
	}
}

// A matrix of some profiles is complete when it holds every fault of those
// profiles, so that its toothless scenarios are reported.
func TestCompleteForProfiles(t *testing.T) {
	m := &Matrix{Profiles: []profile.Name{profile.SlidingLog}}
	for _, f := range faults.All() {
		if f.Profile == profile.SlidingLog {
			m.Rows = append(m.Rows, Row{Expectation: Expectation{Fault: f.Name}})
		}
	}
	if len(m.Rows) < 2 || !m.Complete() {
		t.Fatalf("every sliding-log fault (%d): Complete() = false", len(m.Rows))
	}
	m.Rows = m.Rows[1:]
	if m.Complete() {
		t.Fatal("a sliding-log fault missing: Complete() = true")
	}
	m.Profiles = nil
	if m.Complete() {
		t.Fatal("every profile, sliding-log faults only: Complete() = true")
	}
}

// TestFaultMatrix is the self-test of `make test`: the whole suite and the
// race properties against the reference, and against every fault the
// scenarios that can catch it (WithFocus; `rlspec selftest` runs the
// complete matrix); the reference passes everything, every fault is caught
// by its detectors, no scenario is toothless. (It replaces acceptance's
// TestFaultMatrix, so the suite-per-fault runs once.)
func TestFaultMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("the fault matrix runs the suite once per fault")
	}
	var progress bytes.Buffer
	// Four suites at once: in make test the -race tests fill the cores.
	m, err := Run(context.Background(), WithProgress(&progress), WithReportDir(t.TempDir()), WithFocus(), WithParallel(4))
	if err != nil {
		t.Fatalf("could not run: %v\n%s", err, progress.String())
	}
	var out bytes.Buffer
	m.Write(&out)
	t.Log("\n" + out.String())
	if !m.OK() {
		t.Fatalf("self-test failed (survivors: %v)", m.Survivors())
	}
	if len(m.Rows) != len(faults.All()) {
		t.Fatalf("%d rows for %d faults", len(m.Rows), len(faults.All()))
	}
}

// TestToothless: a scenario that passes against the reference and against
// every fault is reported, and fails a complete matrix.
func TestToothless(t *testing.T) {
	ref := ReferenceRun{N: 1, raceChecks: 1, Race: RaceResult{Ran: true, Checks: 1},
		Acceptance: AcceptanceResult{Passed: 2, PassedIDs: []string{"RL-A", "RL-B"}}}
	m := Matrix{Reference: []ReferenceRun{ref}}
	for _, fi := range faults.All() {
		m.Rows = append(m.Rows, Row{Expectation: Expectation{Fault: fi.Name, Detectors: fault.Detectors{Scenarios: []string{"RL-A"}}},
			Acceptance: AcceptanceResult{Failed: 1, FailedIDs: []string{"RL-A"}}})
	}
	if got := m.Toothless(); len(got) != 1 || got[0] != "RL-B" {
		t.Fatalf("Toothless() = %v, want [RL-B]", got)
	}
	if m.OK() {
		t.Fatal("a matrix with a toothless scenario is OK")
	}
	var buf bytes.Buffer
	m.Write(&buf)
	if !strings.Contains(buf.String(), "toothless: 1 scenario(s)") {
		t.Fatalf("output lacks the toothless line:\n%s", buf.String())
	}
	m.Rows[0].Acceptance.FailedIDs = []string{"RL-A", "RL-B"}
	if got := m.Toothless(); len(got) != 0 || !m.OK() {
		t.Fatalf("Toothless() = %v, OK() = %v after RL-B failed against a fault", got, m.OK())
	}
}

// TestMultiInstanceExpectations: process-cache (and its sl-, fw- and tb-
// variants), invisible with one instance, must be caught by MI-1's
// scenarios, so their suites and the reference's run of their profiles get
// several instances on one store; a fault without Replicas keeps one.
func TestMultiInstanceExpectations(t *testing.T) {
	exps, err := Expectations()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range exps {
		if e.Fault != fault.ProcessCache {
			continue
		}
		for _, id := range []string{"MI-1-01", "MI-1-02"} {
			if !slices.Contains(e.Scenarios, id) {
				t.Errorf("process-cache: %s not required (Scenarios %v)", id, e.Scenarios)
			}
		}
	}
	for _, tc := range []struct {
		f    fault.Name
		p    profile.Name
		want int
	}{
		{fault.ProcessCache, "", AcceptanceReplicas},
		{fault.None, profile.PRD, AcceptanceReplicas},
		{fault.None, profile.SlidingLog, AcceptanceReplicas},
		{fault.SLProcessCache, profile.SlidingLog, AcceptanceReplicas},
		{slidinglog.SLSameSecond, profile.SlidingLog, 1},
		{prd.OffByOneName, "", 1},
	} {
		if got := acceptanceReplicas(tc.f, tc.p); got != tc.want {
			t.Errorf("acceptanceReplicas(%s, %q) = %d, want %d", tc.f, tc.p, got, tc.want)
		}
	}
	if AcceptanceReplicas < 2 {
		t.Fatalf("AcceptanceReplicas = %d: MI-1 needs at least 2", AcceptanceReplicas)
	}
}

// missedBy names the required scenarios that did not fail, and a race
// fault whose required scenario passed is missed: one suite, no second
// chance.
func TestMissedByAndNoSecondSuite(t *testing.T) {
	r := AcceptanceResult{Failed: 1, FailedIDs: []string{"AC4-02"}}
	if got := missedBy([]string{"AC4-02", "AC7-01"}, r); !slices.Equal(got, []string{"AC7-01"}) {
		t.Fatalf("missedBy = %v, want [AC7-01]", got)
	}
	row := Row{Expectation: Expectation{Fault: prd.ResetRaceName, Detectors: fault.Detectors{Scenarios: []string{"AC4-02", "AC7-01"}, Race: true}},
		Acceptance: r, Missed: missedBy([]string{"AC4-02", "AC7-01"}, r), Race: RaceResult{Ran: true, Found: true}}
	if row.OK() {
		t.Fatal("a race fault whose required AC7-01 passed is OK")
	}
	m := &Matrix{Rows: []Row{row}}
	var out bytes.Buffer
	m.Write(&out)
	if !strings.Contains(out.String(), "missed: reset-race") || strings.Contains(out.String(), "second suite") {
		t.Fatalf("want the miss, and no second suite:\n%s", out.String())
	}
}

// The matrix says what each profile's suites cost, in the registry's order.
func TestSuiteTimePerProfile(t *testing.T) {
	m := Matrix{SuiteTime: map[profile.Name]time.Duration{profile.SlidingLog: 2040 * time.Millisecond, profile.PRD: time.Minute}}
	var out bytes.Buffer
	m.Write(&out)
	if want := "suite time per profile (each suite's wall time, summed; several run at once): prd 1m0s, sliding-log 2s\n"; !strings.Contains(out.String(), want) {
		t.Fatalf("output:\n%s\nwant the line %q", out.String(), want)
	}
}

// Suites run eight at once, four under an overload (whose tables were
// measured so), and as many as WithParallel says either way.
func TestSuitesAtOnce(t *testing.T) {
	starved, err := overload.Parse("default")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		c    config
		want int
	}{
		{config{}, DefaultParallel},
		{config{overload: starved}, OverloadParallel},
		{config{overload: starved, parallel: 2}, 2},
		{config{parallel: 12}, 12},
	} {
		if got := c.c.suitesAtOnce(); got != c.want {
			t.Errorf("%+v: %d at once, want %d", c.c, got, c.want)
		}
	}
}
