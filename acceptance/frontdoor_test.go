package acceptance

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// hostsAt resolves every host to one address, without DNS.
type hostsAt string

func (a hostsAt) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	return []netip.Addr{netip.MustParseAddr(string(a))}, nil
}

// TestBindTowardsAnotherHostCouldNotRun: with the default CLIENT_IPS=bind,
// a target that resolves to another host is exit 2 with the setting to
// change, decided from the resolved address before any request (the
// resolver here answers without DNS, and nothing listens there).
func TestBindTowardsAnotherHostCouldNotRun(t *testing.T) {
	tc := service.DefaultConfig()
	tc.URL = "http://api.compose.test:8080"
	_, err := Run(context.Background(), Config{Target: tc}, WithoutReports(), WithResolver(hostsAt("172.18.0.3")))
	var cnr *CouldNotRun
	if !errors.As(err, &cnr) || !strings.Contains(cnr.Reason, "resolves to 172.18.0.3") || !strings.Contains(cnr.Reason, "set CLIENT_IPS=xff") {
		t.Fatalf("err %v, want could not run naming CLIENT_IPS", err)
	}
}

// TestNothingAllowedCouldNotRun: a target that answers a fresh key's first
// request with anything but 2xx (a wrong path, a failing service) is exit
// 2 with the answer shown, not a verdict with a PASS among the failures.
func TestNothingAllowedCouldNotRun(t *testing.T) {
	for _, tc := range []struct {
		status int
		body   string
		want   string
	}{
		{http.StatusNotFound, `{"error": "no route /v1/ride_summary"}`, `answered HTTP 404 "{\"error\": \"no route /v1/ride_summary\"}", not 2xx`},
		{http.StatusServiceUnavailable, "upstream\n down", `answered HTTP 503 "upstream down", not 2xx: rlspec can test only what the service allows; the service failed`},
		{http.StatusUnauthorized, "", "answered HTTP 401, not 2xx: rlspec can test only what the service allows; give the credentials in TARGET_HEADERS"},
	} {
		var hits atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.WriteHeader(tc.status)
			_, _ = w.Write([]byte(tc.body))
		}))
		tcfg := service.DefaultConfig().ForProfile(profile.FixedWindow)
		tcfg.URL, tcfg.Path = srv.URL, "/api/items"
		_, err := Run(context.Background(), Config{Target: tcfg}, WithoutReports())
		srv.Close()
		var cnr *CouldNotRun
		if !errors.As(err, &cnr) || !strings.Contains(cnr.Reason, tc.want) || !strings.Contains(cnr.Reason, "(GET "+srv.URL+"/api/items)") {
			t.Errorf("HTTP %d: %v, want could not run with %q", tc.status, err, tc.want)
		}
		if n := hits.Load(); n != 2 {
			t.Errorf("HTTP %d: %d requests, want the probe and the first request only", tc.status, n)
		}
	}
}

// TestGenericAPIUnderThePRDProfileSaysSo: a generic API run with the
// default PROFILE=prd answers the PRD's POST 405: the sentence names
// PROFILE and suggests the probe.
func TestGenericAPIUnderThePRDProfileSaysSo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		}
	}))
	defer srv.Close()
	tc := service.DefaultConfig()
	tc.URL = srv.URL
	_, err := Run(context.Background(), Config{Target: tc}, WithoutReports())
	var cnr *CouldNotRun
	if !errors.As(err, &cnr) || !strings.Contains(cnr.Reason, "HTTP 405") || !strings.Contains(cnr.Reason, "for another API set PROFILE to its design") ||
		!strings.Contains(cnr.Reason, "`rlspec probe`") {
		t.Fatalf("%v, want could not run naming PROFILE and the probe", err)
	}
}
