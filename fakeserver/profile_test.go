package fakeserver

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/profile"
)

func get(user string) call {
	c := call{Method: http.MethodGet}
	if user != "" {
		c.Header = http.Header{}
		c.Header.Set(UserHeader, user)
	}
	return c
}

func TestSlidingLogProfile(t *testing.T) {
	s := newTest(t, func(c *Config) { c.Profile, c.Limit, c.Window = profile.SlidingLog, 3, 10*time.Second })
	for i := range 3 {
		w := s.do(get("alice"))
		if w.Code != 200 || remaining(w) != int64(2-i) || hdr(w, "X-RateLimit-Limit") != 3 || reset(w) != t0.Unix()+10 {
			t.Fatalf("request %d: %d %v", i+1, w.Code, w.Header())
		}
		s.clk.Advance(time.Second)
	}
	w := s.do(get("alice"))
	var body struct {
		Error struct {
			Code       string `json:"code"`
			RetryAfter int64  `json:"retryAfter"`
		} `json:"error"`
	}
	if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != 429 || body.Error.Code != "RATE_LIMITED" ||
		hdr(w, "Retry-After") != 7 || body.Error.RetryAfter != 7 || remaining(w) != 0 || reset(w) != t0.Unix()+10 {
		t.Fatalf("429: %d %v %s", w.Code, w.Header(), w.Body)
	}
	if w := s.do(get("bob")); w.Code != 200 || remaining(w) != 2 {
		t.Fatalf("another user: %d", w.Code)
	}
	for i := range 3 { // no header: the client address
		if w := s.do(get("")); w.Code != 200 || remaining(w) != int64(2-i) {
			t.Fatalf("anonymous %d: %d %v", i, w.Code, w.Header())
		}
	}
	if w := s.do(get("")); w.Code != 429 {
		t.Fatalf("anonymous over the limit: %d", w.Code)
	}
	s.clk.Advance(7 * time.Second) // the oldest of alice's leaves
	if w := s.do(get("alice")); w.Code != 200 || remaining(w) != 0 || reset(w) != t0.Unix()+11 {
		t.Fatalf("after Retry-After: %d %v", w.Code, w.Header())
	}
	if w := s.do(call{Body: rideBody(devBucket(1))}); w.Code != http.StatusMethodNotAllowed {
		t.Fatalf("POST on a GET profile: %d", w.Code)
	}
}

func TestFixedWindowProfiles(t *testing.T) {
	for align, wantReset := range map[profile.Align]int64{profile.AlignEpoch: (t0.Unix()/10 + 1) * 10, profile.AlignFirstRequest: t0.Unix() + 3 + 10} {
		s := newTest(t, func(c *Config) { c.Profile, c.Align, c.Limit, c.Window = profile.FixedWindow, align, 2, 10*time.Second })
		s.clk.Advance(3 * time.Second)
		for i := range 2 {
			if w := s.do(get("u")); w.Code != 200 || reset(w) != wantReset || remaining(w) != int64(1-i) {
				t.Fatalf("%s request %d: %d %v", align, i, w.Code, w.Header())
			}
		}
		if w := s.do(get("u")); w.Code != 429 || hdr(w, "Retry-After") != wantReset-t0.Unix()-3 {
			t.Fatalf("%s 429: %d %v", align, w.Code, w.Header())
		}
	}
}

func TestProfileFromEnv(t *testing.T) {
	env := map[string]string{"RL_PROFILE": "fixed-window", "RL_WINDOW_ALIGN": "first-request"}
	c, err := ConfigFromEnv(envflag.Map(env))
	if err != nil || c.Profile != profile.FixedWindow || c.Align != profile.AlignFirstRequest {
		t.Fatalf("%+v %v", c, err)
	}
	for k, v := range map[string]string{"RL_PROFILE": "leaky", "RL_WINDOW_ALIGN": "noon"} {
		if _, err := ConfigFromEnv(func(q string) (string, bool) { return v, q == k }); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
}
