package probe_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/probe"
)

// flaskLike answers as Flask-Limiter 3.3.0 on limits 2.8.0's memory
// storage (Debian bookworm), one hit per request, on a fake clock:
//   - fixed-window: the expiry is set by the hit that makes the counter 1
//     (limits/storage/memory.py:68-69), and dropped once passed (:78-80);
//   - elastic: every hit, refused ones too, moves the expiry to now + W
//     (memory.py:68-69 with elastic_expiry=True);
//   - moving: a log of the allowed hits (memory.py:135-151).
//
// Every answer carries X-RateLimit-Limit, -Remaining and -Reset =
// int(expiry) + 1 in unix seconds, and Retry-After = int(Reset − now)
// (flask_limiter/extension.py:829-863, wrappers.py:62-70).
type flaskLike struct {
	mu       sync.Mutex
	clock    *fakeClock
	strategy string
	n        int
	w        time.Duration
	count    map[string]int
	expiry   map[string]time.Time
	log      map[string][]time.Time
	requests int
}

func newFlaskLike(clock *fakeClock, strategy string, n int, w time.Duration) *flaskLike {
	return &flaskLike{clock: clock, strategy: strategy, n: n, w: w, count: map[string]int{}, expiry: map[string]time.Time{}, log: map[string][]time.Time{}}
}

func (f *flaskLike) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.requests++
	now := f.clock.Now()
	key := r.Header.Get("X-User-ID")
	if key == "" {
		key = r.RemoteAddr
	}
	var allowed bool
	var used int
	var expiry time.Time
	switch f.strategy {
	case "moving":
		var kept []time.Time
		for _, t := range f.log[key] {
			if now.Sub(t) < f.w {
				kept = append(kept, t)
			}
		}
		if allowed = len(kept) < f.n; allowed {
			kept = append(kept, now)
		}
		f.log[key], used, expiry = kept, len(kept), kept[len(kept)-1].Add(f.w)
	default:
		if e, ok := f.expiry[key]; ok && !now.Before(e) {
			delete(f.count, key)
			delete(f.expiry, key)
		}
		f.count[key]++
		if f.count[key] == 1 || f.strategy == "elastic" {
			f.expiry[key] = now.Add(f.w)
		}
		used, expiry, allowed = f.count[key], f.expiry[key], f.count[key] <= f.n
	}
	reset := expiry.Unix() + 1
	h := rw.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(f.n))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, f.n-used)))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
	h.Set("Retry-After", strconv.FormatInt(int64(time.Unix(reset, 0).Sub(now)/time.Second), 10))
	if !allowed {
		http.Error(rw, "Too Many Requests", http.StatusTooManyRequests)
		return
	}
	_, _ = rw.Write([]byte("ok\n"))
}

// TestFlaskLimiterWindows: Flask-Limiter's Reset, int(expiry) + 1, lies
// between 3 and 4 s ahead for its 3 s window; the probe reads 3 s from
// when the refused key comes back, and tells the elastic expiry from a
// sliding log. Each strategy from several starts within a second.
func TestFlaskLimiterWindows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		strategy string
		want     map[string]string
	}{
		{"fixed", map[string]string{"PROFILE": "fixed-window", "RL_LIMIT": "5", "RL_WINDOW": "3s", "WINDOW_ALIGN": "first-request", "RESET_FORMAT": "unix"}},
		{"moving", map[string]string{"PROFILE": "sliding-log", "RL_LIMIT": "5", "RL_WINDOW": "3s"}},
		{"elastic", map[string]string{"PROFILE": "fixed-window", "RL_LIMIT": "5", "RL_WINDOW": "3s", "WINDOW_ALIGN": "first-request"}},
	} {
		for _, ms := range []int{0, 120, 480, 730, 990} {
			start := time.Unix(1_795_645_394, int64(ms)*int64(time.Millisecond))
			t.Run(tc.strategy+"/"+strconv.Itoa(ms), func(t *testing.T) {
				t.Parallel()
				clock := &fakeClock{now: start}
				fl := newFlaskLike(clock, tc.strategy, 5, 3*time.Second)
				hs := httptest.NewServer(fl)
				defer hs.Close()
				sess, err := probeOf(t, &served{url: hs.URL, clock: clock}, "", probe.DefaultBudget, time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				g := probe.Suggest(sess, "")
				got := settings(g)
				for k, v := range tc.want {
					if got[k] != v {
						t.Errorf("%s=%q, want %q (%+v)", k, got[k], v, g.Settings)
					}
				}
				if tc.strategy == "elastic" && !mentions(g.Unknown, "extend the window's end (an elastic expiry; the Reset of the requests sent half a window later lay 2s after") {
					t.Errorf("the elastic expiry is not named: %q", g.Unknown)
				}
			})
		}
	}
}

func mentions(ss []string, sub string) bool {
	for _, s := range ss {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
