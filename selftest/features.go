package selftest

import (
	"slices"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/service"
)

// featureClauses are the extended features of any profile the self-test
// claims, with the clauses that make a fault's row claim them.
var featureClauses = []struct {
	feature profile.Feature
	clauses []clause.ID
}{
	{profile.Penalties, []clause.ID{clause.PN1, clause.PN2, clause.PN3, clause.PN4, clause.PN5}},
	{profile.IETFHeaders, []clause.ID{clause.IETF1}},
	{profile.Bypass, []clause.ID{clause.SL10}},
	{profile.Tiers, []clause.ID{clause.SL9}},
}

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
	faults := fault.All()
	if f != fault.None {
		flt, _ := fault.Lookup(f)
		faults = []fault.Fault{flt}
	}
	for _, fc := range featureClauses {
		if slices.ContainsFunc(faults, func(flt fault.Fault) bool {
			return string(flt.Profile) == string(tc.Profile) && slices.ContainsFunc(flt.Breaks, func(id clause.ID) bool { return slices.Contains(fc.clauses, id) })
		}) {
			tc.Features = append(slices.Clone(tc.Features), fc.feature)
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
	faults := fault.All()
	if f != fault.None {
		flt, _ := fault.Lookup(f)
		faults = []fault.Fault{flt}
	}
	for _, flt := range faults {
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
