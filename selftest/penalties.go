package selftest

import (
	"slices"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/service"
)

// claimPenalties claims feature penalties (with the embedded reference's
// default tiers) for a suite of a profile other than the PRD run against
// the reference or a fault that breaks a penalties clause; the other
// faults' rows leave the PN scenarios out, as they demand nothing of them.
func claimPenalties(tc service.Config, f fault.Name) service.Config {
	if tc.Profile == service.ProfilePRD || tc.Profile == "" {
		return tc
	}
	if flt, ok := fault.Lookup(f); f != fault.None && (!ok || !breaksPenalties(flt)) {
		return tc
	}
	tc.Features = append(slices.Clone(tc.Features), service.FeaturePenalties)
	return tc.WithPenaltyDefaults()
}

// breaksPenalties reports whether flt breaks one of PN-1 … PN-5.
func breaksPenalties(flt fault.Fault) bool {
	return slices.ContainsFunc(flt.Breaks, func(id clause.ID) bool {
		return slices.Contains([]clause.ID{clause.PN1, clause.PN2, clause.PN3, clause.PN4, clause.PN5}, id)
	})
}
