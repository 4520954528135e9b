package acceptance

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/features"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// A core clause no scenario is tagged with comes back SKIPPED, "not yet
// checked"; a clause with a scenario, a feature's clause and one TAGS
// leaves out do not.
func TestUncheckedClauses(t *testing.T) {
	fsys := fstest.MapFS{"sl.feature": {Data: []byte(`Feature: sl

  @SL-1 @SL-2 @SL-3 @SL-4 @SL-5 @SL-6 @SL-7 @profile:sliding-log @id:SL-1-99
  Scenario: SL-1-99 [SL-1] core
    Given a fresh key
`)}}
	got, err := unchecked(fsys, "", profile.SlidingLog)
	if err != nil || len(got) != 1 || got[0].Clauses[0] != clause.SL8 || got[0].Status != steps.Skipped ||
		got[0].NotClaimed || !strings.HasPrefix(got[0].Reason, NotYetChecked) {
		t.Fatalf("unchecked: %+v %v", got, err)
	}
	if got, err := unchecked(fsys, "@SL-1", profile.SlidingLog); err != nil || len(got) != 0 {
		t.Fatalf("TAGS=@SL-1: %+v %v", got, err)
	}
	// The real features: every core clause of every profile has a
	// scenario (a profile's clauses still to be written would be listed
	// here).
	stillUnchecked := map[profile.Name]string{}
	for _, p := range profile.All() {
		got, err := unchecked(features.FS, "", p.Name)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range got {
			ids = append(ids, string(r.Clauses[0]))
		}
		if want := stillUnchecked[p.Name]; strings.Join(ids, " ") != want {
			t.Errorf("%s: clauses without a scenario: %v, want %q", p.Name, ids, want)
		}
	}
}

// conformance.json never says pass for a profile whose clauses were not
// checked: the unchecked results make its core partial.
func TestUncheckedCoreIsNotAPass(t *testing.T) {
	notYet, err := unchecked(fstest.MapFS{}, "", profile.LeakyBucket)
	if err != nil {
		t.Fatal(err)
	}
	if c := coreOf(notYet, profile.LeakyBucket); c.Result != "partial" || c.Skipped != 5 || c.Passed != 0 {
		t.Fatalf("core of an unchecked profile: %+v", c)
	}
	rep := &Report{Strict: true, Results: notYet}
	if rep.ExitCode() != 1 {
		t.Fatal("STRICT=1 passed clauses nothing checked")
	}
}

// The fixed-window scenarios read epoch and first-request windows, and
// those tagged @align:<a> a grid: under a grid only those run, every
// other selected scenario is skipped, not judged as epoch; under epoch
// the grid's scenarios are left out.
func TestGridAlignmentsAreReadByTheirScenarios(t *testing.T) {
	for a, want := range map[profile.Align]bool{"": false, profile.AlignEpoch: false, profile.AlignFirstRequest: false,
		profile.AlignKeyGrid: true, profile.AlignGrid: true} {
		tc := service.Config{Profile: profile.FixedWindow, WindowAlign: a}
		if got := unreadAlign(tc) != ""; got != want {
			t.Errorf("%q: unread %v, want %v", a, got, want)
		}
	}
	filter, n, _, err := selectClaimed(features.FS, "", profile.FixedWindow, nil)
	if err != nil {
		t.Fatal(err)
	}
	for a, only := range map[profile.Align]string{profile.AlignKeyGrid: "@id:FW-3-04", profile.AlignGrid: "@id:FW-5-02"} {
		run, skipped, n2, err := withUnchecked(service.Config{Profile: profile.FixedWindow, WindowAlign: a}, "", filter, nil)
		if err != nil || run != only || n2 != 1 || len(skipped) != n-2 {
			t.Fatalf("%s: ran %q (%d), %d of %d skipped, %v", a, run, n2, len(skipped), n, err)
		}
		if c := coreOf(skipped, profile.FixedWindow); c.Result != "partial" || c.Passed != 0 {
			t.Fatalf("%s core: %+v", a, c)
		}
	}
	run, skipped, n2, err := withUnchecked(service.Config{Profile: profile.FixedWindow, WindowAlign: profile.AlignEpoch}, "", filter, nil)
	if err != nil || n2 != n-2 || len(skipped) != 0 || strings.Contains(run, "FW-3-04") || strings.Contains(run, "FW-5-02") {
		t.Fatalf("epoch: ran %q (%d of %d), %d skipped, %v", run, n2, n, len(skipped), err)
	}
}
