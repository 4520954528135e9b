package acceptance

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

// The scenarios here need something of the target (a credential, an
// instance that trusts no proxy, an instance without penalties): each runs
// when it is there and is SKIPPED, saying what is missing, when it is not.

// EXT-AUTH-01 passes a reference that requires a token, fails one that
// spends a unit before refusing (auth-spends), and is SKIPPED with the
// reason when TARGET_HEADERS carries no credential.
func TestRefusedRequestsSpendNothing(t *testing.T) {
	const token = "Bearer t0ken-for-the-test"
	for _, c := range []struct {
		name    string
		f       fault.Name
		headers http.Header
		want    steps.Status
		reason  string
	}{
		{"reference", fault.None, http.Header{"Authorization": {token}}, steps.Passed, ""},
		{"auth-spends", prd.AuthSpendsName, http.Header{"Authorization": {token}}, steps.Failed, "the refused requests spent 2 unit(s)"},
		{"no credential", fault.None, http.Header{"X-Team": {"rides"}}, steps.Skipped, "TARGET_HEADERS carries no credential"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := service.DefaultConfig()
			tc.Headers = c.headers
			require := token
			if c.headers.Get("Authorization") == "" {
				require = ""
			}
			tc.URL = faulttest.Start(t, c.f, func(cfg *fakeserver.Config) { cfg.RequireAuth = require })
			r := runOne(t, 30*time.Second, "EXT-AUTH-01", Config{Target: tc})
			if r.Status != c.want || !strings.Contains(r.Reason, c.reason) {
				t.Fatalf("status %v (%s), want %v saying %q", r.Status, r.Reason, c.want, c.reason)
			}
		})
	}
}

// With CLIENT_IPS=xff the harness is the target's trusted proxy; given an
// instance that trusts no proxy (Reached.UntrustedURL, as a TARGET_IMAGE
// start sets it), EXT-XFF-01 runs against that one: it passes the
// reference, fails trust-xff, and is SKIPPED only without the instance.
func TestUntrustedInstanceRunsXFF01(t *testing.T) {
	for _, c := range []struct {
		name      string
		untrusted bool
		f         fault.Name
		want      steps.Status
	}{
		{"reference", true, fault.None, steps.Passed},
		{"trust-xff", true, prd.TrustXFFName, steps.Failed},
		{"no instance", false, fault.None, steps.Skipped},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := service.DefaultConfig()
			tc.ClientIPs = httpclient.XFF
			tc = startEmbedded(t, tc, fault.None)
			tc.DB = ""
			var reached Reached
			if c.untrusted {
				reached.UntrustedURL = faulttest.Start(t, c.f, func(*fakeserver.Config) {})
			}
			r := runOne(t, 30*time.Second, "EXT-XFF-01", Config{Target: tc, Reached: reached})
			if r.Status != c.want {
				t.Fatalf("result %+v, want %v", r, c.want)
			}
			if c.want == steps.Skipped && !strings.Contains(r.Reason, "trusted proxy") {
				t.Errorf("skip reason %q", r.Reason)
			}
		})
	}
}

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
