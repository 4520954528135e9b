package fault_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// The penalties faults' detectors: sliding-log with N = 3, W = 3 s and
// penalties 2:5s,3:9s on a fake clock.

func pnServer(mk mkServer) tserver {
	return mk(func(c *fakeserver.Config) {
		c.Profile, c.Limit, c.Window = profile.SlidingLog, 3, 3*time.Second
		c.Penalties = []model.PenaltyTier{{Count: 2, Duration: 5 * time.Second}, {Count: 3, Duration: 9 * time.Second}}
	})
}

// penalize spends the key's quota and violates twice: a 5 s penalty from
// the returned time.
func (s tserver) penalize(id string) time.Time {
	s.spend(3, user(id, ""))
	s.spend(2, user(id, ""))
	return s.clk.Now().Add(-100 * time.Millisecond)
}

// retryUnderPenalty sends a request every 250 ms until `until`.
func (s tserver) retryUnderPenalty(id string, until time.Time) {
	for s.clk.Now().Before(until) {
		s.do(user(id, ""))
		s.clk.Advance(250 * time.Millisecond)
	}
}

func pnRefusedCountedDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := pnServer(mk)
	v := s.penalize("u")
	s.retryUnderPenalty("u", v.Add(4*time.Second))
	s.clk.Advance(v.Add(5100 * time.Millisecond).Sub(s.clk.Now()))
	w := s.do(user("u", ""))
	return w.Code != 200, fmt.Sprintf("5.1 s after a 5 s penalty, retried under it: %d %s", w.Code, w.Body.String())
}

func pnNoEscalationDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := pnServer(mk)
	v := s.penalize("u")
	s.clk.Advance(v.Add(5100 * time.Millisecond).Sub(s.clk.Now()))
	s.spend(3, user("u", ""))
	ra := hdr(s.do(user("u", "")), "Retry-After")
	return ra < 8, fmt.Sprintf("the third violation's Retry-After: %d (tier 9 s)", ra)
}

func pnSpendsDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := pnServer(mk)
	v := s.penalize("u")
	s.retryUnderPenalty("u", v.Add(4900*time.Millisecond))
	s.clk.Advance(v.Add(5100 * time.Millisecond).Sub(s.clk.Now()))
	_, ok := s.spend(3, user("u", ""))
	return ok < 3, fmt.Sprintf("after the penalty: %d of 3 allowed", ok)
}

func pnNeverForgetsDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := pnServer(mk)
	s.penalize("u")
	s.clk.Advance(model.PenaltyMemory + time.Minute)
	s.spend(3, user("u", ""))
	w := s.do(user("u", ""))
	return strings.Contains(w.Body.String(), "penalty_active"), fmt.Sprintf("the first violation a day later: %s", w.Body.String())
}

func pnReleaseLateDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := pnServer(mk)
	v := s.penalize("u")
	s.clk.Advance(v.Add(6100 * time.Millisecond).Sub(s.clk.Now()))
	w := s.do(user("u", ""))
	return w.Code != 200, fmt.Sprintf("1.1 s after a 5 s penalty: %d %s", w.Code, w.Body.String())
}

// pnRefusedEscalatesDetector: tiers 2:5s,3:8s,4:11s; retries under the
// first penalty, then, once it and the window have passed, the key's third
// violation must start the 8 s tier.
func pnRefusedEscalatesDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := mk(func(c *fakeserver.Config) {
		c.Profile, c.Limit, c.Window = profile.SlidingLog, 3, 3*time.Second
		c.Penalties = []model.PenaltyTier{{Count: 2, Duration: 5 * time.Second}, {Count: 3, Duration: 8 * time.Second}, {Count: 4, Duration: 11 * time.Second}}
	})
	v := s.penalize("u")
	s.retryUnderPenalty("u", v.Add(4*time.Second))
	s.clk.Advance(v.Add(5100 * time.Millisecond).Sub(s.clk.Now()))
	_, ok := s.spend(3, user("u", ""))
	ra := hdr(s.do(user("u", "")), "Retry-After")
	return ok != 3 || ra > 8, fmt.Sprintf("after a 5 s penalty retried under: %d of 3 allowed, the third violation's Retry-After %d (tier 8 s)", ok, ra)
}

// pnLostViolationDetector: two violations of a key in one instant (as a
// burst of concurrent requests arrives) count twice: the second starts
// the 5 s penalty.
func pnLostViolationDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := pnServer(mk)
	s.spend(3, user("u", ""))
	s.do(user("u", ""))
	w := s.do(user("u", ""))
	return !strings.Contains(w.Body.String(), "penalty_active"), fmt.Sprintf("the second violation: %d %s", w.Code, w.Body.String())
}
