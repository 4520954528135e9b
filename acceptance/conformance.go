package acceptance

import (
	"encoding/json"
	"io"

	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// ConformanceFile is the per-run verdict by profile, written beside the
// other reports (profiles.md, "conformance.json").
const ConformanceFile = "conformance.json"

// Conformance is conformance.json: the implementation and, for each
// profile run, its core result and each extended feature's.
type Conformance struct {
	Implementation string               `json:"implementation"`
	Profile        service.Profile      `json:"profile"` // as asked: one profile, or all
	Profiles       []ProfileConformance `json:"profiles"`
}

// ProfileConformance is one profile's verdict.
type ProfileConformance struct {
	Profile  service.Profile `json:"profile"`
	Core     Core            `json:"core"`
	Features []FeatureResult `json:"features"`
}

// Core is the verdict on a profile's core clauses: "fail" when a scenario
// failed, "partial" when none failed but some could not be checked
// (skipped), "pass" otherwise; with the counts.
type Core struct {
	Result  string `json:"result"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Skipped int    `json:"skipped"`
}

// FeatureResult is an extended feature: whether the implementation claims
// it and what came of it (featureResult: "not checked" for a claimed
// feature without scenarios).
type FeatureResult struct {
	Feature service.Feature `json:"feature"`
	Claimed bool            `json:"claimed"`
	Result  string          `json:"result"`
}

// conformance builds conformance.json from a report.
func conformance(rep *Report) Conformance {
	c := Conformance{Implementation: rep.Target, Profiles: []ProfileConformance{}}
	for i, tc := range rep.Runs {
		if i == 0 {
			c.Profile = tc.Profile
			if tc.Implementation != "" {
				c.Implementation = tc.Implementation
			}
		}
		pc := ProfileConformance{Profile: tc.Profile, Core: coreOf(rep.Results, tc.Profile), Features: []FeatureResult{}}
		for _, f := range service.FeaturesOf(tc.Profile) {
			fr := FeatureResult{Feature: f, Claimed: tc.Claims(f), Result: "not claimed"}
			if fr.Claimed {
				fr.Result = featureResult(rep.Results, tc.Profile, f)
			}
			pc.Features = append(pc.Features, fr)
		}
		c.Profiles = append(c.Profiles, pc)
	}
	if len(rep.Runs) > 1 {
		c.Profile = service.ProfileAll
	}
	return c
}

// coreOf counts the results of profile p.
func coreOf(rs []steps.ScenarioResult, p service.Profile) Core {
	var c Core
	for _, r := range rs {
		if profileOf(r) != p || featureOf(r) != "" {
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
		c.Result = "fail"
	case c.Skipped > 0 || c.Passed == 0:
		c.Result = "partial"
	default:
		c.Result = "pass"
	}
	return c
}

// profileOf is the profile a result belongs to (no @profile: tag: prd).
func profileOf(r steps.ScenarioResult) service.Profile {
	if r.Profile == "" {
		return service.ProfilePRD
	}
	return service.Profile(r.Profile)
}

func writeConformance(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(conformance(rep))
}
