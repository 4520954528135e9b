package fault_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/profile"
)

// The token-bucket faults' detectors: a server serving profile
// token-bucket with B = 5, R = 2/s on a fake clock.

func tbServer(mk mkServer) tserver {
	return mk(func(c *fakeserver.Config) { c.Profile, c.Burst, c.Rate = profile.TokenBucket, 5, 2 })
}

// drain spends the key's bucket at one instant: B allowed, then a 429.
func (s tserver) drain(id string) (allowed int) {
	for range 100 {
		if s.do(user(id, "")).Code != 200 {
			return allowed
		}
		allowed++
	}
	return allowed
}

// tbSteadyDetector is TB-4: after draining, a request every 556 ms (0.9·R)
// for 5 s.
func tbSteadyDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := tbServer(mk)
	s.drain("u")
	for i := range 9 {
		s.clk.Advance(556 * time.Millisecond)
		if w := s.do(user("u", "")); w.Code != 200 {
			return true, fmt.Sprintf("request %d of a client at 0.9·R after draining: %d", i+1, w.Code)
		}
	}
	return false, "a client at 0.9·R was never refused"
}

// tbRefillDetector is TB-3: a drained key that idles 2 s (k = 2 tokens
// and 1 s) gets 2 allowed.
func tbRefillDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := tbServer(mk)
	s.drain("u")
	s.clk.Advance(2 * time.Second)
	ok := 0
	for range 2 {
		if s.do(user("u", "")).Code == 200 {
			ok++
		}
	}
	return ok < 2, fmt.Sprintf("%d of 2 allowed after idling 2 s (k/R + 1 s, k = 2)", ok)
}

// tbCapDetector is TB-1: after an idle of 10 s, a burst gets at most B.
func tbCapDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := tbServer(mk)
	s.drain("u")
	s.clk.Advance(10 * time.Second)
	ok := s.drain("u")
	return ok > 5, fmt.Sprintf("%d allowed at one instant after idling 10 s with B = 5", ok)
}

// tbRetryAfterDetector is TB-6: the 429's Retry-After is in [1, 2].
func tbRetryAfterDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := tbServer(mk)
	s.drain("u")
	w := s.do(user("u", ""))
	ra := hdr(w, "Retry-After")
	return w.Code != 429 || ra < 1 || ra > 2, fmt.Sprintf("429 with Retry-After %d at R = 2/s", ra)
}

// tbAnonymousDetector is TB-8: one address without the key drains its
// bucket; another address without the key gets a full one.
func tbAnonymousDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := tbServer(mk)
	for range 6 {
		s.do(user("", "192.0.2.7:1"))
	}
	_, ok := s.spend(5, user("", "192.0.2.8:1"))
	return ok != 5, fmt.Sprintf("%d of 5 allowed to another address without the key after one drained its bucket", ok)
}

// tbKeysDetector is TB-8: one key drains its bucket; another key from the
// same address gets a full one.
func tbKeysDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := tbServer(mk)
	s.drain("a")
	_, ok := s.spend(5, user("b", ""))
	return ok != 5, fmt.Sprintf("%d of 5 allowed to another key from the same address after one drained its bucket", ok)
}
