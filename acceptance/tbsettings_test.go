package acceptance

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// A token-bucket service whose B or R contradicts RL_BURST / RL_RATE cannot
// run: one sentence naming the setting; matching settings pass.
func TestBucketSettingsCheck(t *testing.T) {
	body, err := bodytmpl.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name          string
		burst, tBurst int
		rate, tRate   float64
		want          string
	}{
		{"match", 5, 5, 2, 2, ""},
		{"burst", 8, 5, 2, 2, "RL_BURST=5 but the service answers X-RateLimit-Limit: 8 on the first request of a fresh key; set RL_BURST=8"},
		{"rate", 5, 5, 0.1, 2, "RL_RATE=2 but the service answers X-RateLimit-Reset: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := service.DefaultConfig().ForProfile(profile.TokenBucket)
			tc.Burst, tc.Rate = c.tBurst, c.tRate
			tc.URL = startConfigured(t, fault.None, func(cfg *fakeserver.Config) {
				cfg.Profile, cfg.Burst, cfg.Rate = profile.TokenBucket, c.burst, c.rate
			})
			_, err := checkSettings(context.Background(), tc, dialect.Settings{}, body, 5*time.Second)
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("checkSettings: %v", err)
			case c.want != "" && (err == nil || len(err.Error()) < len(c.want) || err.Error()[:len(c.want)] != c.want):
				t.Fatalf("checkSettings: %v, want %q…", err, c.want)
			}
		})
	}
}

// A leaky-bucket service whose queue contradicts RL_BURST cannot run; a
// matching or unknown RL_BURST passes.
func TestQueueSettingsCheck(t *testing.T) {
	body, err := bodytmpl.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name          string
		burst, tBurst int
		want          string
	}{
		{"match", 5, 5, ""},
		{"unknown", 5, 0, ""},
		{"burst", 7, 5, "RL_BURST=5 but the service answers X-RateLimit-Limit: 8 (B + 1) on the first request of an idle key; set RL_BURST=7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := service.DefaultConfig().ForProfile(profile.LeakyBucket)
			tc.Burst, tc.Rate = c.tBurst, 2
			tc.URL = startConfigured(t, fault.None, func(cfg *fakeserver.Config) {
				cfg.Profile, cfg.Burst, cfg.Rate = profile.LeakyBucket, c.burst, 2
			})
			_, err := checkSettings(context.Background(), tc, dialect.Settings{}, body, 5*time.Second)
			if (c.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
				t.Fatalf("checkSettings: %v, want %q", err, c.want)
			}
		})
	}
}
