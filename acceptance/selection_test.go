package acceptance

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/features"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps"
)

func TestSelectScenarios(t *testing.T) {
	all, nAll, err := selectScenarios(features.FS, "", profile.PRD)
	if err != nil || all == "" || nAll == 0 || strings.Contains(all, "@id:SL-") {
		t.Fatalf("all of prd: %q %d %v", all, nAll, err)
	}
	sl, nSL, err := selectScenarios(features.FS, "", profile.SlidingLog)
	if err != nil || nSL == 0 || strings.Contains(sl, "@id:RL-") || !strings.Contains(sl, "@id:SL-1-01") {
		t.Fatalf("all of sliding-log: %q %d %v", sl, nSL, err)
	}
	ac1, n1, err := selectScenarios(features.FS, "@AC1", profile.PRD)
	if err != nil || n1 == 0 || !strings.Contains(ac1, "@id:AC1-01") {
		t.Fatalf("@AC1: %q %d %v", ac1, n1, err)
	}
	_, notAC1, err := selectScenarios(features.FS, "not @AC1", profile.PRD)
	if err != nil || notAC1 != nAll-n1 {
		t.Fatalf("not @AC1: %d of %d, want %d; %v", notAC1, nAll, nAll-n1, err)
	}
	_, n2, _ := selectScenarios(features.FS, "@AC2", profile.PRD)
	_, n12, err := selectScenarios(features.FS, "@AC1 or @AC2", profile.PRD)
	if err != nil || n12 != n1+n2 {
		t.Fatalf("@AC1 or @AC2: %d, want %d; %v", n12, n1+n2, err)
	}
	if f, n, err := selectScenarios(features.FS, "@AC1 and @AC2", profile.PRD); err != nil || f != "" || n != 0 {
		t.Fatalf("@AC1 and @AC2: %q %d %v", f, n, err)
	}
	if _, _, err := selectScenarios(features.FS, "@AC1&&", profile.PRD); err == nil || !strings.Contains(err.Error(), "TAGS") {
		t.Fatalf("@AC1&&: %v", err)
	}
}

// A scenario of an extended feature the implementation does not claim is
// left out of the run and reported SKIPPED "not claimed", which STRICT=1
// does not fail; claimed, it runs.
func TestUnclaimedFeatureSkipped(t *testing.T) {
	fsys := fstest.MapFS{"tiers.feature": {Data: []byte(`Feature: tiers (SL-9)

  @SL-9 @profile:sliding-log @feature:tiers @id:SL-9-01
  Scenario: SL-9-01 [SL-9] tiers
    "SL-9: each tier enforces its own N and W."
    Given a fresh key

  @SL-1 @profile:sliding-log @id:SL-1-99
  Scenario: SL-1-99 [SL-1] core
    "SL-1: at most N."
    Given a fresh key
`)}}
	none := func(profile.Feature) bool { return false }
	filter, n, skipped, err := selectClaimed(fsys, "", profile.SlidingLog, none)
	if err != nil || n != 1 || filter != "@id:SL-1-99" || len(skipped) != 1 || skipped[0].ID != "SL-9-01" ||
		skipped[0].Status != steps.Skipped || skipped[0].Reason != NotClaimed || !skipped[0].NotClaimed {
		t.Fatalf("unclaimed: %q %d %+v %v", filter, n, skipped, err)
	}
	all := func(profile.Feature) bool { return true }
	if filter, n, skipped, err := selectClaimed(fsys, "", profile.SlidingLog, all); err != nil || n != 2 || len(skipped) != 0 {
		t.Fatalf("claimed: %q %d %+v %v", filter, n, skipped, err)
	}
	rep := &Report{Strict: true, Results: []steps.ScenarioResult{{Status: steps.Passed}, skipped[0]}}
	if rep.ExitCode() != 0 {
		t.Fatal("STRICT=1 failed a not-claimed skip")
	}
	rep.Results = append(rep.Results, steps.ScenarioResult{Status: steps.Skipped, Reason: "a window passed"})
	if rep.ExitCode() != 1 {
		t.Fatal("STRICT=1 passed a skip of claimed work")
	}
}

// Turns rest on knowing the order godog starts the scenarios in: the same
// as runOrder's for every scenario of every profile.
func TestRunOrderIsGodogs(t *testing.T) {
	pickles, err := featurePickles(features.FS)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, p := range pickles {
		for _, tag := range p.Tags {
			if strings.HasPrefix(tag.Name, "@id:") {
				all = append(all, tag.Name)
			}
		}
	}
	slices.Sort(all)
	tags := strings.Join(slices.Compact(all), ",")
	want, alone, err := runOrder(features.FS, tags)
	if err != nil {
		t.Fatal(err)
	}
	if !alone["FAIL-1-01"] || alone["AC1-01"] {
		t.Fatalf("alone: %v", alone)
	}
	var got []string
	godog.TestSuite{
		ScenarioInitializer: func(sc *godog.ScenarioContext) {
			sc.Before(func(ctx context.Context, s *godog.Scenario) (context.Context, error) {
				for _, tag := range s.Tags {
					if id, ok := strings.CutPrefix(tag.Name, "@id:"); ok {
						got = append(got, id)
					}
				}
				return ctx, nil
			})
		},
		Options: &godog.Options{Format: "progress", Output: io.Discard, FS: features.FS, Paths: []string{"."}, Concurrency: 1, Tags: tags},
	}.Run()
	if !slices.Equal(got, want) {
		t.Fatalf("godog started\n%v\nrunOrder says\n%v", got, want)
	}
}
