package selftest

import (
	"context"
	"testing"

	"github.com/rlspec/rlspec/acceptance"
	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps"
)

// TestFailOpenDesign gives FAIL-2 its teeth from the other side. The
// fault fail-open is spec/004's design (its edge function allows a request
// whose check failed): claiming fail-open, it passes FAIL-2, and the
// fail-closed reference claiming the same fails it. (The fault matrix shows
// FAIL-1 catching fail-open.)
func TestFailOpenDesign(t *testing.T) {
	for _, tc := range []struct {
		name string
		impl fault.Name
		want steps.Status
	}{
		{"spec/004's fail-open passes", prd.FailOpenName, steps.Passed},
		{"the fail-closed reference fails", fault.None, steps.Failed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := profileConfig(profile.PRD)
			cfg.Features = []profile.Feature{profile.FailOpen}
			settings := acceptance.DefaultSettings()
			settings.Tags = "@FAIL-2"
			rep, err := runOnPair(context.Background(), cfg, embedded.Options{Fault: tc.impl, Profile: profile.PRD}, settings)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Results) != 1 || rep.Results[0].Status != tc.want {
				t.Fatalf("FAIL-2 against %s: %+v, want one result %s", rep.Target, rep.Results, tc.want)
			}
		})
	}
}
