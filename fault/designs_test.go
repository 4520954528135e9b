package fault_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/profile"
)

// The detectors of the sliding-window counter's, the leaky bucket's and
// the grids' faults: servers on a fake clock whose t0 starts a window of
// 10 s on the epoch's grid.

func swcServer(mk mkServer, limit int) tserver {
	return mk(func(c *fakeserver.Config) {
		c.Profile, c.Limit, c.Window = profile.SlidingWindowCounter, limit, 10*time.Second
	})
}

func swcServer5(mk mkServer) tserver { return swcServer(mk, 5) }

// swcRetryAfterDetector is SWC-5: N = 5 spent 1 s into a window; a
// request sent once the refusal's Retry-After has passed is allowed (the
// previous window weighs 5·0.9 at most then).
func swcRetryAfterDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := swcServer(mk, 5)
	s.allowedAt(time.Second, "u", 5)
	ra := hdr(s.do(user("u", "")), "Retry-After")
	s.clk.Advance(time.Duration(ra) * time.Second)
	w := s.do(user("u", ""))
	return w.Code != 200, fmt.Sprintf("Retry-After %d after N spent 1 s into a window of 10 s, then %d", ra, w.Code)
}

// swcResetDetector is SWC-6: a request 1 s into a window of 10 s says
// Reset at the window's end.
func swcResetDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := swcServer(mk, 5)
	s.clk.Set(t0.Add(time.Second))
	r := reset(s.do(user("u", "")))
	return r != t0.Unix()+10, fmt.Sprintf("Reset %d 1 s into the window [%d, %d)", r, t0.Unix(), t0.Unix()+10)
}

// swcKeyGridDetector is SWC-6 on the key's grid (W = 10 s): a key whose
// first request comes 5 s into an epoch window is told Reset 10 s later.
func swcKeyGridDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := mk(func(c *fakeserver.Config) {
		c.Profile, c.Align, c.Limit, c.Window = profile.SlidingWindowCounter, profile.AlignKeyGrid, 5, 10*time.Second
	})
	s.clk.Set(t0.Add(5 * time.Second))
	r := reset(s.do(user("u", "")))
	return r != t0.Unix()+15, fmt.Sprintf("key-grid: Reset %d for a first request at %d, W = 10 s", r, t0.Unix()+5)
}

// allowedAt counts the 200s of n requests of key at t0 + at.
func (s tserver) allowedAt(at time.Duration, key string, n int) int {
	s.clk.Set(t0.Add(at))
	ok := 0
	for range n {
		if s.do(user(key, "")).Code == 200 {
			ok++
		}
	}
	return ok
}

// swcWeightedDetector is SWC-2: N = 5 allowed late in one window; 2 s into
// the next, e = 5·0.8 + c, so one more fits (e = 4), a second would find
// e = 5 and a third e = 6 = N + 1.
func swcWeightedDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := swcServer(mk, 5)
	s.allowedAt(9*time.Second, "u", 5)
	ok := s.allowedAt(12*time.Second, "u", 6)
	return ok > 2, fmt.Sprintf("%d allowed 2 s into the window after a full one (N = 5, W = 10 s): the third finds e ≥ 6", ok)
}

// swcOverBlockingDetector is SWC-3: N = 5 allowed and ten refused early in
// one window; 8 s into the next the previous window weighs 5·0.2 = 1, so
// the first three requests find e ≤ 3 = N − 2 and must be allowed (four
// fit).
func swcOverBlockingDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := swcServer(mk, 5)
	s.allowedAt(time.Second, "u", 15)
	ok := s.allowedAt(18*time.Second, "u", 6)
	return ok < 3, fmt.Sprintf("%d allowed 8 s into the window after 5 allowed and 10 refused (N = 5): three find e ≤ N − 2", ok)
}

// swcConcurrentDetector is SWC-4: 30 concurrent requests on a fresh key,
// N = 5.
func swcConcurrentDetector(_ *testing.T, mk mkServer) (bool, string) {
	ok := codes(swcServer(mk, 5).parallel(30, user("u", "")))
	return ok != 5, fmt.Sprintf("%d of 30 concurrent requests on a fresh key allowed with N = 5", ok)
}

// holds records the turns a leaky bucket held its answers for.
type holds struct {
	mu sync.Mutex
	d  []time.Duration
}

func (h *holds) all() []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.d)
}

func lbServer(mk mkServer, noDelay bool) (tserver, *holds) {
	h := &holds{}
	s := mk(func(c *fakeserver.Config) {
		c.Profile, c.Burst, c.Rate, c.NoDelay = profile.LeakyBucket, 3, 2, noDelay
		c.Hold = func(_ context.Context, d time.Duration) bool {
			h.mu.Lock()
			h.d = append(h.d, d)
			h.mu.Unlock()
			return true
		}
	})
	return s, h
}

// lbBoundDetector is LB-2: ten requests at one instant on an idle key with
// B = 3: four allowed, six refused.
func lbBoundDetector(noDelay bool) detector {
	return func(_ *testing.T, mk mkServer) (bool, string) {
		s, _ := lbServer(mk, noDelay)
		ok := s.allowedAt(0, "u", 10)
		return ok != 4, fmt.Sprintf("%d of 10 requests at one instant allowed with B = 3", ok)
	}
}

// lbRefusalDetector is LB-5: the refusal of a full queue (B = 3) is a 429.
func lbRefusalDetector(_ *testing.T, mk mkServer) (bool, string) {
	s, _ := lbServer(mk, false)
	s.allowedAt(0, "u", 4)
	w := s.do(user("u", ""))
	return w.Code != 429, fmt.Sprintf("a request finding the queue full: HTTP %d", w.Code)
}

// lbHeldDetector is the mode's rule on four requests at one instant (B =
// 3): under nodelay none is held, under delay the three queued are.
func lbHeldDetector(noDelay bool) detector {
	return func(_ *testing.T, mk mkServer) (bool, string) {
		s, h := lbServer(mk, noDelay)
		s.allowedAt(0, "u", 4)
		held := h.all()
		if noDelay {
			return len(held) > 0, fmt.Sprintf("nodelay: a burst's queued requests held %v", held)
		}
		return len(held) < 3, fmt.Sprintf("delay: a burst's three queued requests held %v", held)
	}
}

// lbSpacingDetector is LB-1: four requests at one instant (B = 3, R = 2/s)
// leave at their turns, 500 ms apart.
func lbSpacingDetector(_ *testing.T, mk mkServer) (bool, string) {
	s, h := lbServer(mk, false)
	s.allowedAt(0, "u", 4)
	waits := append([]time.Duration{0}, h.all()...) // the first is answered at once, never held
	slices.Sort(waits)
	for i := 1; i < len(waits); i++ {
		if waits[i]-waits[i-1] < 500*time.Millisecond {
			return true, fmt.Sprintf("answers of a burst held %v: two left less than 1/R apart", waits)
		}
	}
	return false, fmt.Sprintf("answers held %v", waits)
}

// lbKeysDetector is LB-4: alice queues three requests; bob's first is
// answered at once.
func lbKeysDetector(_ *testing.T, mk mkServer) (bool, string) {
	s, h := lbServer(mk, false)
	s.allowedAt(0, "alice", 3)
	before := len(h.all())
	s.allowedAt(0, "bob", 1)
	held := h.all()[before:]
	return len(held) > 0, fmt.Sprintf("bob's first request held %v behind alice's queue", held)
}

// lbIdle is an idle leaky bucket of B = 3 that delays.
func lbIdle(mk mkServer) tserver {
	s, _ := lbServer(mk, false)
	return s
}

// fwGridNextDetector is FW-3 on a grid (N = 1, W = 10 s): a request at
// each of t0 + offsets; the last starts a fresh window of the grid and
// must be allowed.
func fwGridNextDetector(align profile.Align, offsets ...time.Duration) detector {
	return func(_ *testing.T, mk mkServer) (bool, string) {
		s := mk(func(c *fakeserver.Config) {
			c.Profile, c.Align, c.Limit, c.Window = profile.FixedWindow, align, 1, 10*time.Second
		})
		ok := 0
		for _, at := range offsets {
			ok = s.allowedAt(at, "u", 1)
		}
		return ok == 0, fmt.Sprintf("%s: the request at t0 + %v, a fresh window of the grid, allowed=%v", align, offsets[len(offsets)-1], ok == 1)
	}
}
