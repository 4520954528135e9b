package preflight

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// A token-bucket service whose B or R contradicts RL_BURST / RL_RATE, or a
// leaky-bucket service whose queue contradicts RL_BURST, cannot run: one
// sentence naming the setting; matching settings (and, for the queue, an
// unknown RL_BURST) pass.
func TestBucketSettingsCheck(t *testing.T) {
	body, err := bodytmpl.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name          string
		design        profile.Name
		burst, tBurst int
		rate, tRate   float64
		want          string
	}{
		{"match", profile.TokenBucket, 5, 5, 2, 2, ""},
		{"burst", profile.TokenBucket, 8, 5, 2, 2, "RL_BURST=5 but the service answers X-RateLimit-Limit: 8 on the first request of a fresh key; set RL_BURST=8"},
		{"rate", profile.TokenBucket, 5, 5, 0.1, 2, "RL_RATE=2 but the service answers X-RateLimit-Reset: "},
		{"queue match", profile.LeakyBucket, 5, 5, 2, 2, ""},
		{"queue unknown", profile.LeakyBucket, 5, 0, 2, 2, ""},
		{"queue burst", profile.LeakyBucket, 7, 5, 2, 2, "RL_BURST=5 but the service answers X-RateLimit-Limit: 8 (B + 1) on the first request of an idle key; set RL_BURST=7"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := service.DefaultConfig().ForProfile(c.design)
			tc.Burst, tc.Rate = c.tBurst, c.tRate
			tc.URL = faulttest.Start(t, fault.None, func(cfg *fakeserver.Config) {
				cfg.Profile, cfg.Burst, cfg.Rate = c.design, c.burst, c.rate
			})
			_, err := CheckSettings(context.Background(), tc, dialect.Settings{}, body, 5*time.Second)
			if (c.want == "") != (err == nil) || (err != nil && !strings.HasPrefix(err.Error(), c.want)) {
				t.Fatalf("CheckSettings: %v, want %q…", err, c.want)
			}
		})
	}
}
