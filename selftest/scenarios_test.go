package selftest

import (
	"bytes"
	"strings"
	"testing"
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
