package fakeserver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
)

func wantJSONError(t *testing.T, w *httptest.ResponseRecorder, status int, code string) {
	t.Helper()
	var body struct{ Error string }
	if w.Code != status || w.Header().Get("Content-Type") != "application/json" ||
		json.Unmarshal(w.Body.Bytes(), &body) != nil || body.Error != code {
		t.Fatalf("got %d %q %s, want %d error %q", w.Code, w.Header().Get("Content-Type"), w.Body, status, code)
	}
}

func TestHeadersThrough429(t *testing.T) {
	s := newTest(t, func(c *Config) { c.Limit = 2 })
	now := s.clk.Now().Unix()
	b := devBucket(1)
	for i, want := range []int64{1, 0} {
		w := s.post(b)
		if w.Code != 200 || remaining(w) != want || reset(w) != now+3600 || hdr(w, "X-RateLimit-Limit") != 2 {
			t.Fatalf("request %d: %d %v", i, w.Code, w.Header())
		}
		if !strings.Contains(w.Body.String(), `"status":"accepted"`) {
			t.Fatalf("body %s", w.Body)
		}
		s.clk.Advance(3 * time.Second)
	}
	w := s.post(b)
	wantJSONError(t, w, 429, "rate_limited")
	left := now + 3600 - s.clk.Now().Unix()
	if remaining(w) != 0 || reset(w) != now+3600 || hdr(w, "Retry-After") != left {
		t.Fatalf("429 headers %v, want Retry-After %d", w.Header(), left)
	}
	// Upper-case device buckets are the same bucket.
	if w := s.post(strings.ToUpper(b)); w.Code != 429 {
		t.Fatalf("upper-case bucket: %d", w.Code)
	}
	s.clk.Advance(time.Hour)
	if w := s.post(b); w.Code != 200 || remaining(w) != 1 || reset(w) != s.clk.Now().Unix()+3600 {
		t.Fatalf("after the window: %d %v", w.Code, w.Header())
	}
}

func TestReplayAndKeyReuse(t *testing.T) {
	s := newTest(t, nil)
	c := call{Body: rideBody(devBucket(1)), Key: "key-1"}
	first := s.do(c)
	s.clk.Advance(2 * time.Second)
	again := s.do(c)
	if again.Code != first.Code || !bytes.Equal(again.Body.Bytes(), first.Body.Bytes()) ||
		again.Header().Get("Idempotent-Replayed") != "true" || remaining(again) != 499 || reset(again) != reset(first) {
		t.Fatalf("replay %d %v %s vs %s", again.Code, again.Header(), again.Body, first.Body)
	}
	other := s.do(call{Body: rideBody(devBucket(1)) + " ", Key: "key-1"})
	wantJSONError(t, other, 422, "idempotency_key_reused")
	if remaining(other) != 499 {
		t.Fatalf("422 headers %v", other.Header())
	}
	if w := s.post(devBucket(1)); remaining(w) != 498 {
		t.Fatalf("next fresh request Remaining %d, want 498", remaining(w))
	}
	ws := s.parallel(40, call{Body: rideBody(devBucket(2)), Key: "key-2"})
	for _, w := range ws {
		if w.Code != 200 || !bytes.Equal(w.Body.Bytes(), ws[0].Body.Bytes()) {
			t.Fatalf("concurrent identical: %d %s", w.Code, w.Body)
		}
	}
	if w := s.post(devBucket(2)); remaining(w) != 498 {
		t.Fatalf("40 concurrent identical requests spent %d units", 499-remaining(w))
	}
}

func TestIPFallback(t *testing.T) {
	s := newTest(t, func(c *Config) { c.Limit = 3 })
	a, b := "198.51.100.7:1000", "[2001:db8::9]:2000"
	for i, body := range []string{rideBody(nil), rideBody("not-hex"), rideBody(123), rideBody(strings.Repeat("g", 64)), rideBody(devBucket(1)[:63])} {
		w := s.do(call{Remote: a, Body: body})
		want := 200
		if i >= 3 {
			want = 429
		}
		if w.Code != want {
			t.Fatalf("request %d (%s): %d, want %d", i, body, w.Code, want)
		}
	}
	if w := s.do(call{Remote: b, Body: rideBody(nil)}); w.Code != 200 || remaining(w) != 2 {
		t.Fatalf("other address: %d %d", w.Code, remaining(w))
	}
	if w := s.do(call{Remote: "198.51.100.7:9999", Body: rideBody(nil)}); w.Code != 429 {
		t.Fatalf("same address, other port: %d", w.Code)
	}
	var n int
	if err := s.Store().DB().QueryRow(`SELECT count(*) FROM rate_limit_buckets WHERE bucket_id IN ('ip:198.51.100.7','ip:2001:db8::9')`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("ip bucket ids: %d %v", n, err)
	}
}

func TestForwardedFor(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	s := newTest(t, func(c *Config) { c.TrustedProxies = trusted; c.Limit = 1 })
	xff := func(v string) http.Header { return http.Header{"X-Forwarded-For": {v}} }
	for _, tc := range []struct {
		remote, xff, want string
	}{
		{"192.0.2.5:1", "203.0.113.9", "192.0.2.5"},               // untrusted peer: ignored
		{"10.1.1.1:1", "203.0.113.9", "203.0.113.9"},              // trusted peer
		{"10.1.1.1:1", "203.0.113.1, 203.0.113.9", "203.0.113.9"}, // right-most untrusted
		{"10.1.1.1:1", "203.0.113.9, 10.2.2.2", "203.0.113.9"},    // skip trusted hops
		{"10.1.1.1:1", "10.3.3.3, 10.2.2.2", "10.3.3.3"},          // all trusted: left-most
		{"10.1.1.1:1", "garbage, 203.0.113.9", "203.0.113.9"},     // stops at the first untrusted
		{"10.1.1.1:1", "203.0.113.9, garbage", "10.1.1.1"},        // unparsable: last trusted hop
		{"[::ffff:10.1.1.1]:1", "203.0.113.9", "203.0.113.9"},     // 4in6 peer
		{"10.1.1.1:1", "", "10.1.1.1"},                            // no header
	} {
		r := httptest.NewRequest(http.MethodPost, PathRideSummary, nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header = xff(tc.xff)
		}
		if got := s.ClientAddr(r); got != tc.want {
			t.Errorf("peer %s XFF %q: %s, want %s", tc.remote, tc.xff, got, tc.want)
		}
	}
	// Spoofing from an untrusted peer does not buy a new quota.
	s.do(call{Remote: "192.0.2.5:1", Body: rideBody(nil), Header: xff("203.0.113.1")})
	if w := s.do(call{Remote: "192.0.2.5:1", Body: rideBody(nil), Header: xff("203.0.113.2")}); w.Code != 429 {
		t.Fatalf("spoofed XFF got a new quota: %d", w.Code)
	}
}

func TestFlagOff(t *testing.T) {
	s := newTest(t, func(c *Config) { c.Enabled = false; c.Limit = 2 })
	for i := 0; i < 5; i++ {
		w := s.post(devBucket(1))
		if w.Code != 200 || remaining(w) != 999 || hdr(w, "X-RateLimit-Limit") != 2 || reset(w) != s.clk.Now().Unix()+3600 {
			t.Fatalf("request %d: %d %v", i, w.Code, w.Header())
		}
	}
}

// Bad input gets a 4xx JSON error, never a 5xx, and never spends or
// restores quota.
func TestBadInput(t *testing.T) {
	s := newTest(t, func(c *Config) { c.Limit = 2 })
	remote := "192.0.2.77:5"
	huge := `{"device_bucket":"` + strings.Repeat("a", 64) + `","pad":"` + strings.Repeat("x", MaxBodyBytes) + `"}`
	cases := []struct {
		name, method, ctype, body, key string
		status                         int
		code                           string
	}{
		{"malformed", "POST", "application/json", `{"route_id":`, "", 400, "invalid_json"},
		{"trailing", "POST", "application/json", `{} {}`, "", 400, "invalid_json"},
		{"empty", "POST", "application/json", ``, "", 400, "empty_body"},
		{"spaces", "POST", "application/json", "  \n", "", 400, "empty_body"},
		{"array", "POST", "application/json", `[1,2,3]`, "", 400, "not_object"},
		{"string", "POST", "application/json", `"x"`, "", 400, "not_object"},
		{"null", "POST", "application/json", `null`, "", 400, "not_object"},
		{"utf8", "POST", "application/json", "{\"route_id\":\"\xff\xfe\"}", "", 400, "invalid_utf8"},
		{"duplicate", "POST", "application/json", `{"device_bucket":"a","device_bucket":"b"}`, "", 400, "duplicate_key"},
		{"oversized", "POST", "application/json", huge, "", 413, "body_too_large"},
		{"method", "GET", "application/json", ``, "", 405, "method_not_allowed"},
		{"put", "PUT", "application/json", `{}`, "", 405, "method_not_allowed"},
		{"ctype", "POST", "text/plain", `{}`, "", 415, "unsupported_media_type"},
		{"noctype", "POST", "", `{}`, "", 415, "unsupported_media_type"},
		{"badkey", "POST", "application/json", `{}`, strings.Repeat("k", 300), 400, "invalid_idempotency_key"},
		{"deep", "POST", "application/json", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), "", 400, "invalid_json"},
	}
	run := func(t *testing.T) {
		for _, tc := range cases {
			r := httptest.NewRequest(tc.method, PathRideSummary, strings.NewReader(tc.body))
			if tc.ctype != "" {
				r.Header.Set("Content-Type", tc.ctype)
			}
			if tc.key != "" {
				r.Header.Set("Idempotency-Key", tc.key)
			}
			r.RemoteAddr = remote
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			t.Run(tc.name, func(t *testing.T) { wantJSONError(t, w, tc.status, tc.code) })
		}
	}
	run(t)
	if w := s.do(call{Remote: remote, Body: rideBody(nil)}); w.Code != 200 || remaining(w) != 1 {
		t.Fatalf("bad input spent quota: %d Remaining %d", w.Code, remaining(w))
	}
	s.do(call{Remote: remote, Body: rideBody(nil)})
	run(t)
	if w := s.do(call{Remote: remote, Body: rideBody(nil)}); w.Code != 429 {
		t.Fatalf("bad input restored quota: %d", w.Code)
	}
	// The device bucket in the oversized body was never charged.
	if w := s.post(strings.Repeat("a", 64)); remaining(w) != 1 {
		t.Fatalf("oversized body spent quota: %d", remaining(w))
	}
}

func TestRoutes(t *testing.T) {
	s := newTest(t, nil)
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"GET", PathHealth, 200}, {"HEAD", PathHealth, 200}, {"POST", PathHealth, 405}, {"GET", "/nope", 404},
	} {
		w := httptest.NewRecorder()
		s.ServeHTTP(w, httptest.NewRequest(tc.method, tc.path, nil))
		if w.Code != tc.status || w.Header().Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %d %q", tc.method, tc.path, w.Code, w.Header().Get("Content-Type"))
		}
	}
}

func TestStartServesAndCloses(t *testing.T) {
	cfg := DefaultConfig()
	r, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(r.URL+PathRideSummary, "application/json", strings.NewReader(rideBody(devBucket(3))))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-RateLimit-Remaining") != "499" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := http.Get(r.URL + PathHealth); err == nil {
		t.Fatal("still serving after Close")
	}
}

func TestConfigFromEnv(t *testing.T) {
	c, err := ConfigFromEnv(envflag.Map(map[string]string{}))
	if err != nil || !c.Enabled || c.Limit != 500 || c.Window != time.Hour || c.Sentinel != 999 {
		t.Fatalf("defaults %+v %v", c, err)
	}
	c, err = ConfigFromEnv(envflag.Map(map[string]string{
		"BMTC_RATE_LIMIT_ENABLED": "false", "BMTC_RATE_LIMIT_PER_HOUR": "7", "BMTC_RATE_LIMIT_WINDOW_SECONDS": "3",
		"DB_PATH": "/x.db", "TRUSTED_PROXIES": "10.0.0.0/8, 192.0.2.1", "RL_SENTINEL": "5",
	}))
	if err != nil || c.Enabled || c.Limit != 7 || c.Window != 3*time.Second ||
		c.DBPath != "/x.db" || len(c.TrustedProxies) != 2 || c.TrustedProxies[1].Bits() != 32 || c.Sentinel != 5 {
		t.Fatalf("%+v %v", c, err)
	}
	for k, v := range map[string]string{
		"BMTC_RATE_LIMIT_ENABLED": "maybe", "BMTC_RATE_LIMIT_PER_HOUR": "0", "BMTC_RATE_LIMIT_WINDOW_SECONDS": "1.5",
		"TRUSTED_PROXIES": "10.0.0.0/99", "RL_SENTINEL": "-1", "CLEANUP_EVERY": "soon",
	} {
		if _, err := ConfigFromEnv(envflag.Map(map[string]string{k: v})); err == nil {
			t.Errorf("%s=%q accepted", k, v)
		}
	}
}

// Retention cleanup through the server, with the fake clock.
func TestServerCleanup(t *testing.T) {
	s := newTest(t, nil)
	s.post(devBucket(1))
	s.do(call{Body: rideBody(devBucket(1)), Key: "k"})
	s.clk.Advance(25*time.Hour + time.Second)
	st, err := s.Cleanup(t.Context())
	if err != nil || st.Buckets != 1 || st.IdempotencyKeys != 1 || st.Rides != 2 {
		t.Fatalf("%+v %v", st, err)
	}
}
