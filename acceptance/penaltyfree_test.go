package acceptance

import (
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// A correct limiter with penalties on TARGET_URL and penalties claimed: a
// core scenario that needs refusals (SL-5-01, TB-6-01) is SKIPPED with the
// reason (profiles.md), not failed because a refusal started a penalty;
// given an instance without penalties apart from the one with them, it runs
// and passes.
func TestPenaltiesSkipCoreChecksThatNeedRefusals(t *testing.T) {
	for _, c := range []struct {
		id      string
		profile profile.Name
		tiers   string
	}{
		{"SL-5-01", profile.SlidingLog, "2:5s,3:9s"}, // the second refusal starts 5 s
		{"TB-6-01", profile.TokenBucket, "1:4s"},     // Retry-After 4 > ⌈1/R⌉ + 1
	} {
		t.Run(c.id, func(t *testing.T) {
			t.Parallel()
			tiers, err := model.ParsePenaltyTiers(c.tiers)
			if err != nil {
				t.Fatal(err)
			}
			serve := func(pen []model.PenaltyTier) string {
				return faulttest.Start(t, fault.None, func(cfg *fakeserver.Config) {
					cfg.Profile, cfg.Limit, cfg.Window, cfg.Penalties = c.profile, 5, 3*time.Second, pen
				})
			}
			tc := service.DefaultConfig().ForProfile(profile.Name(c.profile))
			tc.Limit, tc.Window = 5, 3*time.Second
			if c.profile == profile.TokenBucket {
				tc.Burst, tc.Rate = fakeserver.DefaultBurst, fakeserver.DefaultRate
			}
			tc.Features, tc.Penalties = append(tc.Features, profile.Penalties), tiers
			run := func(tc service.Config) steps.ScenarioResult { return runOne(t, time.Minute, c.id, Config{Target: tc}) }

			tc.URL = serve(tiers)
			if r := run(tc); r.Status != steps.Skipped || !strings.Contains(r.Reason, "TARGET_URL_PENALTIES") {
				t.Errorf("penalties on TARGET_URL: %s %q, want SKIPPED naming TARGET_URL_PENALTIES", r.Status, r.Reason)
			}
			tc.PenaltiesURL = tc.URL
			if r := run(tc); r.Status != steps.Skipped {
				t.Errorf("TARGET_URL_PENALTIES = TARGET_URL: %s %q, want SKIPPED", r.Status, r.Reason)
			}
			tc.URL = serve(nil)
			if r := run(tc); r.Status != steps.Passed {
				t.Errorf("a penalty-free TARGET_URL: %s %q, want PASSED", r.Status, r.Reason)
			}
		})
	}
}
