package fault_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/profile"
)

// The fixed-window faults' detectors: a server serving profile
// fixed-window (epoch) with N = 3, W = 10 s on a fake clock that starts at
// an epoch boundary.

func fwServer(mk mkServer) tserver {
	return mk(func(c *fakeserver.Config) {
		c.Profile, c.Align, c.Limit, c.Window = profile.FixedWindow, profile.AlignEpoch, 3, 10*time.Second
	})
}

func fwEpochDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := fwServer(mk)
	s.clk.Advance(5 * time.Second)
	s.spend(3, user("u", ""))
	s.clk.Advance(5 * time.Second) // t0 + 10.3 s: the next epoch window
	w := s.do(user("u", ""))
	return w.Code != 200, fmt.Sprintf("first request of the next epoch window: %d", w.Code)
}

func fwBoundaryDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := fwServer(mk)
	s.spend(3, user("u", ""))
	s.clk.Advance(10 * time.Second)
	ok := codes(s.parallel(50, user("u", "")))
	return ok > 3, fmt.Sprintf("%d of 50 allowed at the boundary with N = 3", ok)
}

func fwOffByOneDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := fwServer(mk)
	_, ok := s.spend(5, user("u", ""))
	return ok != 3, fmt.Sprintf("%d of 5 allowed in one window with N = 3", ok)
}

func fwOneShortDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := fwServer(mk)
	_, ok := s.spend(3, user("u", ""))
	return ok != 3, fmt.Sprintf("%d of 3 allowed in one window with N = 3", ok)
}

func fwBodyDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := fwServer(mk)
	w, _ := s.spend(4, user("u", ""))
	return w.Code != 429 || !strings.Contains(w.Body.String(), `"RATE_LIMITED"`), fmt.Sprintf("429 body %s", w.Body)
}

// fwKeyGridDetector: first-request windows (N = 3, W = 10 s). The key's
// first request at t0, then an idle gap of 19.4 s (not a multiple of W):
// the 3 spent then open a window that lasts until t0 + 29.4 s, so a request
// at t0 + 20.1 s is refused; a grid anchored at t0 gives it a fresh window.
func fwKeyGridDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := mk(func(c *fakeserver.Config) {
		c.Profile, c.Align, c.Limit, c.Window = profile.FixedWindow, profile.AlignFirstRequest, 3, 10*time.Second
	})
	s.do(user("u", ""))
	s.clk.Advance(19400 * time.Millisecond)
	s.spend(3, user("u", ""))
	s.clk.Advance(700 * time.Millisecond)
	w := s.do(user("u", ""))
	return w.Code != 429, fmt.Sprintf("a request 0.7 s after a window opened by the first request after an idle gap and spent: %d", w.Code)
}

// fwRetryDetector: epoch windows (N = 3, W = 10 s). The key spends its
// window and retries once a second while refused; the first request of the
// next window is allowed.
func fwRetryDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := fwServer(mk)
	s.spend(3, user("u", ""))
	for range 9 {
		s.clk.Advance(time.Second)
		s.do(user("u", ""))
	}
	s.clk.Advance(1100 * time.Millisecond) // t0 + 10.1 s: the next window
	w := s.do(user("u", ""))
	return w.Code != 200, fmt.Sprintf("first request of the next window after retries while refused: %d", w.Code)
}
