package acceptance

import (
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/service"
)

// A service at 20 per 3 s run with the defaults, and a service with a
// one-hour window run with RL_WINDOW=3s, cannot run: one sentence naming
// the variable and the value the service showed, not 25 failures.
func TestSettingsThatDoNotMatchTheServiceCannotRun(t *testing.T) {
	for _, c := range []struct {
		name     string
		limit    int
		window   time.Duration
		tcLimit  int
		tcWindow time.Duration
		want     string
	}{
		{"limit", 20, 3 * time.Second, 500, time.Hour, "RL_LIMIT=500 but the service answers X-RateLimit-Limit: 20 on the first request of a fresh bucket; set RL_LIMIT=20"},
		{"window", 20, time.Hour, 20, 3 * time.Second, "RL_WINDOW=3s but the service answers X-RateLimit-Reset: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			tc := service.DefaultConfig()
			set := DefaultSettings()
			tc.URL = faulttest.Start(t, fault.None, func(cfg *fakeserver.Config) { cfg.Limit, cfg.Window = c.limit, c.window })
			tc.Limit, tc.Window = c.tcLimit, c.tcWindow
			var out strings.Builder
			_, err := runWithin(t, 15*time.Second, Config{Target: tc, Settings: set}, WithoutReports(), WithOutput(&out))
			wantCouldNotRun(t, err, c.want)
			if strings.Contains(out.String(), "FAIL") {
				t.Errorf("scenarios ran:\n%s", out.String())
			}
		})
	}
}
