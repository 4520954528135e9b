package acceptance

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/rlspec/rlspec/profile"
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
	Profile        profile.Name         `json:"profile"` // as asked: one profile, or all
	Profiles       []ProfileConformance `json:"profiles"`
}

// ProfileConformance is one profile's verdict.
type ProfileConformance struct {
	Profile profile.Name `json:"profile"`
	// Dialect says which dialect the answers were read in and, when auto
	// decided it, from what (dialects.md).
	Dialect  string          `json:"dialect"`
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
// it and what came of its scenarios (those of its clauses): "pass", "fail",
// "partial" (some skipped), "not checked: …" when none ran, or "not
// claimed"; with the counts.
type FeatureResult struct {
	Feature profile.Feature `json:"feature"`
	Claimed bool            `json:"claimed"`
	Result  string          `json:"result"`
	Passed  int             `json:"passed,omitempty"`
	Failed  int             `json:"failed,omitempty"`
	Skipped int             `json:"skipped,omitempty"`
}

// featureOf is the extended feature whose clause r checks, "" for a core
// scenario (the registry's one feature → clause table).
func featureOf(r steps.ScenarioResult) profile.Feature { return profile.FeatureOfAny(r.Clauses) }

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
		pc := ProfileConformance{Profile: tc.Profile, Dialect: tc.Dialect, Core: coreOf(rep.Results, tc.Profile), Features: []FeatureResult{}}
		for _, f := range profile.Of(tc.Profile).Features() {
			pc.Features = append(pc.Features, featureResult(rep.Results, tc.Config, f))
		}
		c.Profiles = append(c.Profiles, pc)
	}
	if len(rep.Runs) > 1 {
		c.Profile = profile.Every
	}
	return c
}

// featureResult is what came of feature f's scenarios in tc's profile.
func featureResult(rs []steps.ScenarioResult, tc service.Config, f profile.Feature) FeatureResult {
	fr := FeatureResult{Feature: f, Claimed: tc.Claims(f), Result: "not claimed"}
	if !fr.Claimed {
		return fr
	}
	for _, r := range rs {
		if profileOf(r) != tc.Profile || featureOf(r) != f {
			continue
		}
		switch r.Status {
		case steps.Passed:
			fr.Passed++
		case steps.Failed:
			fr.Failed++
		case steps.Skipped:
			fr.Skipped++
		}
	}
	switch {
	case fr.Failed > 0:
		fr.Result = "fail"
	case fr.Passed+fr.Skipped == 0:
		fr.Result = fmt.Sprintf("not checked: no scenario of %s ran in profile %s", f, tc.Profile)
	case fr.Skipped > 0:
		fr.Result = "partial"
	default:
		fr.Result = "pass"
	}
	return fr
}

// coreOf counts the results of profile p's core scenarios (not those of an
// extended feature: a scenario left out as not claimed is always a
// feature's).
func coreOf(rs []steps.ScenarioResult, p profile.Name) Core {
	var c Core
	for _, r := range rs {
		if profileOf(r) != p || featureOf(r) != "" || r.NotClaimed {
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
func profileOf(r steps.ScenarioResult) profile.Name {
	if r.Profile == "" {
		return profile.PRD
	}
	return profile.Name(r.Profile)
}

func writeConformance(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(conformance(rep))
}
