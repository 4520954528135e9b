package acceptance

import (
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

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
