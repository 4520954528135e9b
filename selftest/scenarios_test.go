package selftest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/fault"
)

// TestScenarioTable: the per-scenario table counts each scenario's
// outcomes over the reference runs, gives each skip reason with its
// count, and marks a scenario skipped in more than a tenth of its runs.
func TestScenarioTable(t *testing.T) {
	run := func(passed, failed, skipped []string, reason string) ReferenceRun {
		a := AcceptanceResult{PassedIDs: passed, FailedIDs: failed, SkippedIDs: skipped, SkipReasons: map[string]string{}}
		for _, id := range skipped {
			a.SkipReasons[id] = reason
		}
		return ReferenceRun{Acceptance: a}
	}
	m := &Matrix{Overload: "4 CPU hogs", Reference: []ReferenceRun{
		run([]string{"A-1", "B-1"}, nil, nil, ""),
		run([]string{"A-1"}, nil, []string{"B-1"}, "the window ended during the check"),
		run(nil, []string{"A-1"}, []string{"B-1"}, "the window ended during the check"),
	}}
	tally := m.Scenarios()
	if len(tally) != 2 || tally[0].ID != "A-1" || tally[0].Passed != 2 || tally[0].Failed != 1 ||
		tally[1].Skipped != 2 || tally[1].Reasons["the window ended during the check"] != 2 {
		t.Fatalf("tally %+v", tally)
	}
	var b bytes.Buffer
	m.WriteScenarios(&b)
	out := b.String()
	for _, want := range []string{"overload: 4 CPU hogs", "A-1", "2/3", "1/3", "2× the window ended during the check", "skips in more than a tenth"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(strings.SplitN(out, "B-1", 2)[0], "more than a tenth") {
		t.Errorf("A-1, never skipped, is marked:\n%s", out)
	}
}

// TestDetectionBar: 19 of 20 (every run below 20) is detected; the table
// marks a required scenario below it.
func TestDetectionBar(t *testing.T) {
	for _, c := range []struct {
		caught, runs int
		want         bool
	}{{20, 20, true}, {19, 20, true}, {18, 20, false}, {1, 1, true}, {0, 1, false}, {4, 5, false}, {5, 5, true}, {38, 40, true}, {37, 40, false}} {
		if got := detected(c.caught, c.runs); got != c.want {
			t.Errorf("detected(%d, %d) = %v, want %v", c.caught, c.runs, got, c.want)
		}
	}
	m := &Matrix{Rows: []Row{{Expectation: Expectation{Fault: "f", Detectors: fault.Detectors{Scenarios: []string{"A-1", "B-1"}}}, Detections: map[string]int{"A-1": 20, "B-1": 17}, Runs: 20}}}
	var b bytes.Buffer
	m.WriteDetection(&b)
	if out := b.String(); !strings.Contains(out, "20/20") || !strings.Contains(out, "17/20") || strings.Count(out, "BELOW") != 1 {
		t.Errorf("detection table:\n%s", out)
	}
}
