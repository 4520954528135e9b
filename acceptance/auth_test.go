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
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps"
)

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
