package selftest

import (
	"slices"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// claimable are the extended features of any profile the self-test
// claims for a row whose fault breaks one of the feature's clauses.
var claimable = []profile.Feature{profile.Penalties, profile.IETFHeaders, profile.Bypass, profile.Tiers}

// claimFeatures claims penalties (with the embedded reference's default
// tiers), ietf-headers, bypass and tiers (their defaults) for a fault's
// row when the fault breaks one of the feature's clauses, and for the
// reference's run of a profile when a fault of that profile does (so that
// every scenario the reference passes is shown to fail against a fault);
// the other rows leave those scenarios out, as they demand nothing of
// them.
func claimFeatures(tc service.Config, f fault.Name) service.Config {
	if tc.Profile == profile.PRD || tc.Profile == "" {
		return tc
	}
	of := faultsOf(f)
	for _, feature := range claimable {
		if slices.ContainsFunc(of, func(flt fault.Fault) bool {
			return string(flt.Profile) == string(tc.Profile) && slices.ContainsFunc(flt.Breaks, func(id clause.ID) bool { return profile.FeatureOf(id) == feature })
		}) {
			tc.Features = append(slices.Clone(tc.Features), feature)
		}
	}
	return tc.WithPenaltyDefaults().WithBypassDefaults().WithTierDefaults()
}

// AcceptanceReplicas is how many instances on one store the suite runs
// against for a fault that declares Replicas > 1, and for the reference's
// run of that fault's profile: with more than one the embedded reference
// claims multi-instance and MI-1's scenarios run.
const AcceptanceReplicas = 3

// acceptanceReplicas is the instances profile p's suite runs against for
// fault f (fault.None: the reference, against every fault of p).
func acceptanceReplicas(f fault.Name, p profile.Name) int {
	of := faultsOf(f)
	for _, flt := range of {
		if flt.Detectors.Replicas > 1 && profileOf(flt.Profile) == profileOf(p) {
			return AcceptanceReplicas
		}
	}
	return 1
}

// profileOf is p, the PRD for "".
func profileOf(p profile.Name) profile.Name {
	if p == "" {
		return profile.PRD
	}
	return p
}

// serving is how the self-test serves and claims a profile for a fault
// or the reference: the window alignment (WINDOW_ALIGN, "" the profile's
// default) and the leaky bucket's LB_MODE=nodelay.
type serving struct {
	Align   profile.Align
	NoDelay bool
}

// servingOf is how fault f is served and claimed.
func servingOf(f fault.Fault) serving { return serving{Align: f.Align, NoDelay: f.NoDelay} }

// referenceServings are the ways the reference's suite of profile p runs:
// the profile's default (its default alignment named), and each other
// alignment or mode a fault of p is served with (its scenarios must pass
// against the correct design too).
func referenceServings(p profile.Name) []serving {
	out := []serving{{Align: profile.Of(p).Defaults.Align}}
	for _, f := range faults.All() {
		if sv := servingOf(f); f.Profile == p && sv != (serving{}) && !slices.Contains(out, sv) {
			out = append(out, sv)
		}
	}
	return out
}

// faultsOf is fault f alone, or every fault for fault.None (the
// reference, which runs against all of them).
func faultsOf(f fault.Name) []fault.Fault {
	if f == fault.None {
		return faults.All()
	}
	flt, _ := faults.Lookup(f)
	return []fault.Fault{flt}
}
