package fault_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/profile"
)

// The sliding-log faults' detectors: a server serving profile sliding-log
// with N = 3, W = 10 s on a fake clock.

type mkServer = func(func(*fakeserver.Config)) tserver

func slServer(mk mkServer) tserver {
	return mk(func(c *fakeserver.Config) {
		c.Profile, c.Limit, c.Window = profile.SlidingLog, 3, 10*time.Second
	})
}

// user is a GET keyed by X-User-ID (none for ""), from remote ("" the default).
func user(id, remote string) call {
	c := call{Method: http.MethodGet, Remote: remote, Header: http.Header{}}
	if id != "" {
		c.Header.Set(fakeserver.UserHeader, id)
	}
	return c
}

// spend sends n requests of c, 100 ms apart, and returns the last.
func (s tserver) spend(n int, c call) (last *httptest.ResponseRecorder, ok int) {
	for range n {
		last = s.do(c)
		if last.Code == 200 {
			ok++
		}
		s.clk.Advance(100 * time.Millisecond)
	}
	return last, ok
}

func slSameSecondDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := slServer(mk)
	_, ok := s.spend(4, user("u", ""))
	return ok > 3, fmt.Sprintf("%d of 4 requests within 0.4 s allowed with N = 3", ok)
}

func slResetDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := slServer(mk)
	r := reset(s.do(user("u", "")))
	return r != s.clk.Now().Unix()+10, fmt.Sprintf("first request's Reset %d, now %d, W 10 s", r, s.clk.Now().Unix())
}

func slRefusedDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := slServer(mk)
	start := s.clk.Now()
	s.spend(3, user("u", ""))
	s.spend(60, user("u", "")) // 6 s of refusals, 100 ms apart
	s.clk.Advance(start.Add(10*time.Second + 50*time.Millisecond).Sub(s.clk.Now()))
	w := s.do(user("u", ""))
	return w.Code != 200, fmt.Sprintf("10.05 s after the first allowed request, after 60 refusals: %d", w.Code)
}

func slRetryAfterLongDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := slServer(mk)
	s.spend(3, user("u", ""))
	s.clk.Advance(6 * time.Second)
	ra := hdr(s.do(user("u", "")), "Retry-After")
	return ra > 5, fmt.Sprintf("Retry-After %d when the oldest leaves in 3.7 s", ra)
}

func slRetryAfterShortDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := slServer(mk)
	s.spend(3, user("u", ""))
	ra := hdr(s.do(user("u", "")), "Retry-After")
	s.clk.Advance(time.Duration(ra) * time.Second)
	w := s.do(user("u", ""))
	return w.Code != 200, fmt.Sprintf("Retry-After %d, then %d", ra, w.Code)
}

// concurrentDetector is k concurrent requests of a fresh key on server,
// which must allow exactly n of them (FW-4, SL-3, TB-5, LB-2).
func concurrentDetector(server func(mkServer) tserver, k, n int) detector {
	return func(_ *testing.T, mk mkServer) (bool, string) {
		ok := codes(server(mk).parallel(k, user("u", "")))
		return ok != n, fmt.Sprintf("%d of %d concurrent requests on a fresh key allowed, want %d", ok, k, n)
	}
}

// limitDetector is a fresh key's second request on server, which must
// claim Limit n (FW-5, TB-7).
func limitDetector(server func(mkServer) tserver, n int64) detector {
	return func(_ *testing.T, mk mkServer) (bool, string) {
		s := server(mk)
		s.do(user("u", ""))
		l := hdr(s.do(user("u", "")), "X-RateLimit-Limit")
		return l != n, fmt.Sprintf("second request's Limit %d, want %d", l, n)
	}
}

// keysDetector is SL-8's first sentence on server (N = n): after one user
// spent N, another user from the same address is allowed.
func keysDetector(server func(mkServer) tserver, n int) detector {
	return otherAllowedDetector(server, n, user("a", ""), user("b", ""), "another user from the same address")
}

// anonymousDetector is SL-8's second sentence on server (N = n): after
// one address spent N without the key, another address is allowed.
func anonymousDetector(server func(mkServer) tserver, n int) detector {
	return otherAllowedDetector(server, n, user("", "192.0.2.7:1"), user("", "192.0.2.8:1"), "another address without the header")
}

// otherAllowedDetector spends n (N) with one call on server; the other,
// which must count apart from it, must still be allowed.
func otherAllowedDetector(server func(mkServer) tserver, n int, one, other call, who string) detector {
	return func(_ *testing.T, mk mkServer) (bool, string) {
		s := server(mk)
		s.spend(n, one)
		w := s.do(other)
		return w.Code != 200, fmt.Sprintf("%s after one spent N: %d", who, w.Code)
	}
}

// slCounterDetector: N requests 200 ms before a 10 s grid window ends, one
// more 200 ms after it: N+1 within 0.4 s, which a sliding log refuses.
func slCounterDetector(_ *testing.T, mk mkServer) (bool, string) {
	s := slServer(mk)
	end := s.clk.Now().Truncate(10 * time.Second).Add(10 * time.Second)
	s.clk.Advance(end.Add(-200 * time.Millisecond).Sub(s.clk.Now()))
	for range 3 {
		s.do(user("u", ""))
	}
	s.clk.Advance(400 * time.Millisecond)
	w := s.do(user("u", ""))
	return w.Code == 200, fmt.Sprintf("3 allowed 200 ms before a grid window's end, one more 200 ms after it: %d", w.Code)
}
