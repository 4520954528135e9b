package acceptance

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

func TestConformance(t *testing.T) {
	res := func(p string, st steps.Status) steps.ScenarioResult {
		return steps.ScenarioResult{Profile: p, Status: st}
	}
	feat := func(id clause.ID, st steps.Status) steps.ScenarioResult { // the PRD's
		return steps.ScenarioResult{Clauses: []clause.ID{id}, Status: st}
	}
	sl := service.DefaultConfig().ForProfile(profile.SlidingLog)
	sl.Implementation = "jack"
	fw := service.DefaultConfig()
	fw.Features = []profile.Feature{profile.AnonymousOpen}
	fw = fw.ForProfile(profile.FixedWindow)
	prd := service.DefaultConfig()
	prd.Features = []profile.Feature{profile.FailClosed, profile.Persistence}
	prd = prd.ForProfile(profile.PRD)
	rep := &Report{Target: "http://x", Runs: []ProfileRun{{Config: sl, Dialect: "dialect: x-ratelimit, Reset as unix seconds — detected from `X-RateLimit-Reset: 1795000000` on the first response"}, {Config: fw}, {Config: prd}}, Results: []steps.ScenarioResult{
		res("sliding-log", steps.Passed), res("sliding-log", steps.Passed),
		res("fixed-window", steps.Passed), res("fixed-window", steps.Skipped),
		res("", steps.Passed), res("", steps.Failed),
		feat(clause.FAIL1, steps.Passed), feat(clause.PS1, steps.Failed), feat(clause.FAIL2, steps.Skipped),
	}}
	var b bytes.Buffer
	if err := writeConformance(&b, rep); err != nil {
		t.Fatal(err)
	}
	var c Conformance
	if err := json.Unmarshal(b.Bytes(), &c); err != nil {
		t.Fatal(err)
	}
	if c.Implementation != "jack" || c.Profile != profile.Every || len(c.Profiles) != 3 {
		t.Fatalf("%s", b.String())
	}
	if !strings.HasPrefix(c.Profiles[0].Dialect, "dialect: x-ratelimit, Reset as unix seconds — detected from") {
		t.Errorf("conformance.json states no detected dialect: %q", c.Profiles[0].Dialect)
	}
	want := []Core{{"pass", 2, 0, 0}, {"partial", 1, 0, 1}, {"fail", 1, 1, 0}}
	for i, p := range c.Profiles {
		if p.Core != want[i] {
			t.Errorf("%s: core %+v, want %+v", p.Profile, p.Core, want[i])
		}
	}
	claimed := map[profile.Feature]FeatureResult{}
	for _, f := range c.Profiles[1].Features {
		claimed[f.Feature] = f
	}
	if f := claimed[profile.AnonymousOpen]; !f.Claimed || f.Result == "pass" || f.Result == "not claimed" {
		t.Errorf("a claimed feature without scenarios: %+v", f)
	}
	if f := claimed[profile.Tiers]; f.Claimed || f.Result != "not claimed" {
		t.Errorf("an unclaimed feature: %+v", f)
	}
	if len(c.Profiles[0].Features) == len(c.Profiles[1].Features) {
		t.Errorf("anonymous-open listed for sliding-log")
	}
	// The feature scenarios are the features', not the core's (the core
	// counts above left them out): fail-closed passed, persistence failed,
	// fail-open is not claimed though its scenario was skipped.
	prdFeatures := map[profile.Feature]FeatureResult{}
	for _, f := range c.Profiles[2].Features {
		prdFeatures[f.Feature] = f
	}
	for f, want := range map[profile.Feature]string{profile.FailClosed: "pass", profile.Persistence: "fail", profile.FailOpen: "not claimed"} {
		if got := prdFeatures[f].Result; got != want {
			t.Errorf("prd %s: %q, want %q", f, got, want)
		}
	}
	// A scenario of a feature not claimed is the feature's, never a
	// skipped core scenario (issue 24, item 5: the reference passing every
	// token-bucket scenario got core "partial, skipped 2").
	tb := service.DefaultConfig().WithTokenBucketDefaults().ForProfile(profile.TokenBucket)
	unclaimed := steps.ScenarioResult{ID: "IETF-1-03", Profile: "token-bucket", Status: steps.Skipped, Reason: NotClaimed, NotClaimed: true}
	tbRep := &Report{Target: "http://x", Runs: []ProfileRun{{Config: tb}}, Results: []steps.ScenarioResult{res("token-bucket", steps.Passed), unclaimed}}
	if got := conformance(tbRep).Profiles[0].Core; got != (Core{"pass", 1, 0, 0}) {
		t.Errorf("token-bucket with an unclaimed feature scenario: core %+v, want pass 1", got)
	}
	one := &Report{Target: "http://x", Runs: []ProfileRun{{Config: prd}}}
	if c := conformance(one); c.Implementation != "http://x" || c.Profile != profile.PRD || c.Profiles[0].Core.Result != "partial" {
		t.Errorf("one profile, nothing run: %+v", c)
	}
}
