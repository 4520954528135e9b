package acceptance

import (
	"slices"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// featureClauses are the extended features with scenarios, by the clauses
// those scenarios carry: such scenarios count for their feature in
// conformance.json, not for the profile's core.
var featureClauses = map[service.Feature][]clause.ID{
	service.FeaturePenalties:   {clause.PN1, clause.PN2, clause.PN3, clause.PN4, clause.PN5},
	service.FeatureIETFHeaders: {clause.IETF1},
	service.FeatureTiers:       {clause.SL9},
	service.FeatureBypass:      {clause.SL10},
}

// featureOf is the extended feature scenario r checks, "" for core.
func featureOf(r steps.ScenarioResult) service.Feature {
	for f, ids := range featureClauses {
		if slices.ContainsFunc(r.Clauses, func(id clause.ID) bool { return slices.Contains(ids, id) }) {
			return f
		}
	}
	return ""
}

// featureResult is a claimed feature's result from its scenarios of
// profile p: pass, fail when one failed, partial when none failed but some
// were skipped; "not checked" when it has none.
func featureResult(rs []steps.ScenarioResult, p service.Profile, f service.Feature) string {
	var c Core
	for _, r := range rs {
		if profileOf(r) != p || featureOf(r) != f {
			continue
		}
		switch r.Status {
		case steps.Passed:
			c.Passed++
		case steps.Failed:
			c.Failed++
		case steps.Skipped:
			c.Skipped++
		}
	}
	switch {
	case c.Failed > 0:
		return "fail"
	case c.Skipped > 0:
		return "partial"
	case c.Passed > 0:
		return "pass"
	}
	return "not checked: no scenarios for this feature yet"
}
