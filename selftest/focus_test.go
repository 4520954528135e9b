package selftest

import (
	"testing"

	"github.com/rlspec/rlspec/profile"
)

// TestFocusSelectsDetectorsAndOrphans: under WithFocus a fault's suite runs
// its own detectors and the scenarios no fault requires, never another
// fault's detectors, and nothing when none is left.
func TestFocusSelectsDetectorsAndOrphans(t *testing.T) {
	f := &focus{ran: map[profile.Name][]string{}, required: map[string]bool{"A-1": true, "A-2": true}}
	f.record(profile.SlidingLog, AcceptanceResult{PassedIDs: []string{"A-1", "A-2"}, SkippedIDs: []string{"O-1"}})
	f.record(profile.TokenBucket, AcceptanceResult{PassedIDs: []string{"A-2"}})
	f.required["B-1.1"] = true
	f.record(profile.PRD, AcceptanceResult{PassedIDs: []string{"B-1.1", "B-1.2", "B-1.3"}})
	for _, c := range []struct {
		p         profile.Name
		detectors []string
		want      string
		run       bool
	}{
		{profile.SlidingLog, []string{"A-1"}, "@id:A-1 or @id:O-1", true},
		{profile.SlidingLog, nil, "@id:O-1", true},
		{profile.TokenBucket, []string{"A-1"}, "", false},
		{profile.TokenBucket, []string{"A-2"}, "@id:A-2", true},
		// an outline's rows run by their outline's tag, once
		{profile.PRD, []string{"B-1.1"}, "@id:B-1", true},
		{profile.PRD, nil, "@id:B-1", true},
	} {
		if got, run := f.tags(c.p, c.detectors); got != c.want || run != c.run {
			t.Errorf("tags(%s, %v) = %q, %v; want %q, %v", c.p, c.detectors, got, run, c.want, c.run)
		}
	}
	var none *focus
	if got, run := none.tags(profile.PRD, []string{"A-1"}); got != "" || !run {
		t.Errorf("without focus: tags = %q, %v; want the whole suite", got, run)
	}
}
