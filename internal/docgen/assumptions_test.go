package docgen

import (
	"maps"
	"slices"
	"testing"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/features"
)

// The assumptions table reads every Assume of the step sets and finds a
// scenario's through the functions its steps call.
func TestAssumptionsOfScenarios(t *testing.T) {
	ix, err := assumptionIndex("../..")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(slices.Collect(maps.Values(ix.assumes)), func(ws []string) bool { return slices.Contains(ws, OnEveryRequest) }) {
		t.Errorf("no step set records %q: OnEveryRequest names an assumption nothing records", OnEveryRequest)
	}
	if len(ix.unread) > 0 {
		t.Errorf("Assume calls whose assumption cannot be read (use a string literal): %v", ix.unread)
	}
	cat, err := acceptance.Catalog(features.FS)
	if err != nil {
		t.Fatal(err)
	}
	steps := map[string][]string{}
	for _, s := range cat {
		steps[s.ID] = s.Steps
	}
	for id, want := range map[string]struct {
		has  string
		none bool
	}{
		"LB-2-01":  {has: "an idle key's request at the same instant answered promptly"},
		"LB-4-01":  {has: "the key's requests sent while the other key's were queued"},
		"FW-3-02":  {has: "the window spent before it ended"},
		"AC3-03":   {has: "two samples … apart at the server inside one window"},
		"TB-8-01":  {has: "the requests decided before a shared bucket could have refilled"},
		"FW-1-01":  {none: true},
		"PN-5-01":  {none: true},
		"SWC-2-01": {has: "the runs certainly in two grid windows"},
	} {
		got, err := ix.assumptionsOf(steps[id])
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if want.none && len(got) > 0 || !want.none && !slices.Contains(got, want.has) {
			t.Errorf("%s: %q, want %+v", id, got, want)
		}
	}
}
