package fakeserver

import (
	"net/http/httptest"
	"testing"

	"github.com/rlspec/rlspec/model"
)

// TestTierKeyer: a tier keys by its own key (ip, a header) or, without one,
// as the profile's endpoint; keys the reference cannot serve are errors.
func TestTierKeyer(t *testing.T) {
	profile := HeaderKeyer{}
	r := httptest.NewRequest("GET", "/v1/t", nil)
	r.RemoteAddr = "192.0.2.7:5000"
	r.Header.Set(UserHeader, "u1")
	r.Header.Set("X-Staff", "s1")
	for key, want := range map[string]string{"": UserPrefix + "u1", "ip": AddressPrefix + "192.0.2.7", "header:X-Staff": UserPrefix + "s1"} {
		k, err := tierKeyer(model.Tier{Path: "/v1/t", Key: key}, nil, profile)
		if err != nil {
			t.Fatalf("key %q: %v", key, err)
		}
		if got := k.Key(r, Ride{}); got != want {
			t.Errorf("key %q: bucket %q, want %q", key, got, want)
		}
	}
	for _, bad := range []string{"body:device", "header:", "cookie:x"} {
		if _, err := tierKeyer(model.Tier{Path: "/v1/t", Key: bad}, nil, profile); err == nil {
			t.Errorf("key %q accepted", bad)
		}
	}
}
