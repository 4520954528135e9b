package fakeserver

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// With REQUIRE_AUTH, a request without it or with a wrong value is 401 and
// spends nothing; the right value is served; the health check needs none.
func TestRequireAuthRefusesWithoutSpending(t *testing.T) {
	const token = "Bearer s3cret"
	s := newTest(t, func(c *Config) { c.RequireAuth = token })
	auth := func(v string) http.Header {
		if v == "" {
			return nil
		}
		return http.Header{"Authorization": {v}}
	}
	body := rideBody(devBucket(1))
	if w := s.do(call{Body: body, Header: auth(token)}); w.Code != 200 || remaining(w) != 499 {
		t.Fatalf("authorised: %d, Remaining %d", w.Code, remaining(w))
	}
	for _, v := range []string{"", "Bearer wrong", token + "x", "bearer s3cret"} {
		if w := s.do(call{Body: body, Header: auth(v)}); w.Code != http.StatusUnauthorized {
			t.Errorf("Authorization %q: %d, want 401", v, w.Code)
		}
	}
	if w := s.do(call{Body: body, Header: auth(token)}); w.Code != 200 || remaining(w) != 498 {
		t.Fatalf("after refusals: %d, Remaining %d, want 498", w.Code, remaining(w))
	}
	hw := httptest.NewRecorder()
	s.ServeHTTP(hw, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if hw.Code != 200 {
		t.Errorf("healthz without auth: %d", hw.Code)
	}
	cfg, err := ConfigFromEnv(func(k string) (string, bool) { return map[string]string{"REQUIRE_AUTH": token}[k], k == "REQUIRE_AUTH" })
	if err != nil || cfg.RequireAuth != token {
		t.Errorf("REQUIRE_AUTH: %q, %v", cfg.RequireAuth, err)
	}
}
