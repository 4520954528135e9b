package acceptance

import (
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/steps"
)

// TestNotClaimedIsOneLine: without -v the scenarios of features not
// claimed are one line of the summary, not a row each; with -v they are
// rows again.
func TestNotClaimedIsOneLine(t *testing.T) {
	rep := &Report{Results: []steps.ScenarioResult{
		{ID: "FW-1-01", Name: "FW-1-01 at most N", Status: steps.Failed, Clauses: []clause.ID{clause.FW1}, Reason: "too many"},
		{ID: "PN-1-01", Name: "PN-1-01 a penalty", Status: steps.Skipped, NotClaimed: true, Clauses: []clause.ID{clause.PN1}, Reason: steps.NotClaimed + " FEATURES does not include penalties"},
		{ID: "PN-2-01", Name: "PN-2-01 escalation", Status: steps.Skipped, Clauses: []clause.ID{clause.PN2}, Reason: steps.NotClaimed + " FEATURES does not include penalties"},
		{ID: "PN-3-01", Name: "PN-3-01 release", Status: steps.Skipped, Clauses: []clause.ID{clause.PN3}, Reason: steps.NotClaimed + " FEATURES does not include penalties"},
		{ID: "MI-1-01", Name: "MI-1-01 instances", Status: steps.Skipped, Clauses: []clause.ID{clause.MI1}, Reason: steps.NotClaimed + " FEATURES does not include multi-instance"},
		{ID: "MI-1-05", Name: "MI-1-05 left out before the run", Status: steps.Skipped, NotClaimed: true, Reason: "not claimed"},
		{ID: "IETF-1-02", Name: "IETF-1-02 left out before the run", Status: steps.Skipped, NotClaimed: true, Reason: "not claimed"},
		{ID: "FW-5-01", Name: "FW-5-01 headers", Status: steps.Skipped, Clauses: []clause.ID{clause.FW5}, Reason: "DIALECT status"},
	}}
	var quiet, verbose strings.Builder
	writeTable(&quiet, rep, false)
	writeTable(&verbose, rep, true)
	if want := "6 scenarios of features not claimed: PN-1…3, MI-1, IETF-1 (-v lists them)"; !strings.Contains(quiet.String(), want) {
		t.Errorf("quiet table lacks %q:\n%s", want, quiet.String())
	}
	for _, name := range []string{"PN-1-01 a penalty", "PN-2-01", "MI-1-01"} {
		if strings.Contains(quiet.String(), name) {
			t.Errorf("quiet table lists %s:\n%s", name, quiet.String())
		}
		if !strings.Contains(verbose.String(), name) {
			t.Errorf("verbose table lacks %s:\n%s", name, verbose.String())
		}
	}
	for _, name := range []string{"FW-1-01 at most N", "FW-5-01 headers"} {
		if !strings.Contains(quiet.String(), name) {
			t.Errorf("quiet table lacks %s:\n%s", name, quiet.String())
		}
	}
	if strings.Contains(verbose.String(), "-v lists them") {
		t.Errorf("verbose table still folds them:\n%s", verbose.String())
	}
}

// TestProgressLinesCountAndTime: each progress line says how many
// scenarios of how many have ended and the time since the run began.
func TestProgressLinesCountAndTime(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	var out strings.Builder
	c := newCollector(&out, false, 2, func() time.Time { return now })
	now = now.Add(3 * time.Second)
	c.Record(steps.ScenarioResult{Name: "A", Status: steps.Passed})
	c.Record(steps.ScenarioResult{Name: "N", Status: steps.Skipped, NotClaimed: true})
	now = now.Add(61 * time.Second)
	c.Record(steps.ScenarioResult{Name: "B", Status: steps.Failed})
	want := "[  1/2 3s] PASS    A (0s)\n[  2/2 1m4s] FAIL    B (0s)\n"
	if out.String() != want {
		t.Errorf("progress:\n%s\nwant:\n%s", out.String(), want)
	}
}
