package probe_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/probe"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// heldKey carries, in a request's context, where the reference writes how
// long it held the answer back.
type heldKey struct{}

// queueServed is the reference's leaky bucket on a fake clock that does
// not move: each answer tells, in X-Test-Held, how long the reference held
// it for its turn, and the target below receives it that much after it was
// sent — as a client of a real queue would.
func queueServed(t *testing.T, burst int, rate float64, noDelay bool) (*fakeClock, string) {
	t.Helper()
	clock := &fakeClock{now: t0}
	c := base(profile.LeakyBucket, 500, time.Hour)
	c.Burst, c.Rate, c.NoDelay, c.Clock = burst, rate, noDelay, clock
	c.Hold = func(ctx context.Context, d time.Duration) bool {
		*ctx.Value(heldKey{}).(*time.Duration) = d
		return true
	}
	srv, err := fakeserver.New(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var held time.Duration
		srv.ServeHTTP(heldWriter{w, &held}, r.WithContext(context.WithValue(r.Context(), heldKey{}, &held)))
	}))
	t.Cleanup(hs.Close)
	return clock, hs.URL
}

type heldWriter struct {
	http.ResponseWriter
	held *time.Duration
}

func (h heldWriter) WriteHeader(code int) {
	h.Header().Set("X-Test-Held", h.held.String())
	h.ResponseWriter.WriteHeader(code)
}

func (h heldWriter) Write(b []byte) (int, error) {
	if h.Header().Get("X-Test-Held") == "" {
		h.Header().Set("X-Test-Held", h.held.String())
	}
	return h.ResponseWriter.Write(b)
}

// heldTarget receives each answer as long after it sent it as the
// reference held it.
type heldTarget struct {
	t    *probe.HTTPTarget
	mu   sync.Mutex
	sent int
}

func (h *heldTarget) Send(ctx context.Context, key string, client int) *httpclient.Exchange {
	ex := h.t.Send(ctx, key, client)
	if d, err := time.ParseDuration(ex.RespHeader.Get("X-Test-Held")); err == nil {
		ex.Received = ex.Sent.Add(d)
	}
	h.mu.Lock()
	h.sent++
	h.mu.Unlock()
	return ex
}

func probeQueue(t *testing.T, clock *fakeClock, url string, budget int, given profile.Name) (*probe.Session, *heldTarget) {
	t.Helper()
	tc := service.DefaultConfig()
	tc.URL, tc.Profile = url, profile.FixedWindow
	inner, err := probe.NewHTTPTarget(tc, httpclient.WithClock(clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(inner.Close)
	h := &heldTarget{t: inner}
	sess, err := probe.Run(context.Background(), h, probe.Options{Budget: budget, MaxWait: 30 * time.Second, Clock: clock, Local: true, Profile: given})
	if err != nil {
		t.Fatal(err)
	}
	return sess, h
}

// TestLeakyBucketSuggested: a queue that holds excess back (LB_MODE=delay)
// is a leaky bucket with its queue's length and rate, within the budget;
// one that answers at once (nodelay) is the token bucket it answers as,
// with the leaky bucket named as the same claim.
func TestLeakyBucketSuggested(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		burst   int
		rate    float64
		noDelay bool
		given   profile.Name
		want    map[string]string
		note    string
	}{
		{"delay", 5, 2, false, "", map[string]string{"PROFILE": "leaky-bucket", "RL_BURST": "5", "RL_RATE": "2", "LB_MODE": "delay", "LIMITED_STATUS": "429"}, ""},
		{"delay, slow", 3, 0.5, false, "", map[string]string{"PROFILE": "leaky-bucket", "RL_BURST": "3", "RL_RATE": "0.5", "LB_MODE": "delay"}, ""},
		{"nodelay given", 5, 2, true, profile.LeakyBucket, map[string]string{"PROFILE": "leaky-bucket", "RL_BURST": "5", "RL_RATE": "2", "LB_MODE": "nodelay"}, ""},
		{"nodelay", 5, 2, true, "", map[string]string{"PROFILE": "token-bucket", "RL_BURST": "6", "RL_RATE": "2"},
			"PROFILE=leaky-bucket RL_BURST=5 RL_RATE=2 LB_MODE=nodelay is the same claim"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			clock, url := queueServed(t, tc.burst, tc.rate, tc.noDelay)
			sess, h := probeQueue(t, clock, url, probe.DefaultBudget, tc.given)
			g := probe.Suggest(sess, tc.given)
			got := settings(g)
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s=%q, want %q (%+v; unknown %q)", k, got[k], v, g.Settings, g.Unknown)
				}
			}
			if testing.Verbose() {
				var out bytes.Buffer
				probe.Report{Endpoint: url, Local: true, Session: sess, Suggest: g}.Write(&out)
				t.Log(out.String())
			}
			if tc.note != "" && !mentions(g.Unknown, tc.note) {
				t.Errorf("the undetermined do not say %q: %q", tc.note, g.Unknown)
			}
			if h.sent > probe.DefaultBudget || h.sent != sess.Sent() {
				t.Errorf("%d requests sent, the session counted %d, the budget %d", h.sent, sess.Sent(), probe.DefaultBudget)
			}
		})
	}
}

// TestSlidingWindowCounterSuggested: the reference's sliding-window
// counter, with and without the Reset, is told from a token bucket (which
// gives back as much at each look) and from a sliding log (whole limit at
// once), with its limit and window.
func TestSlidingWindowCounterSuggested(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		answer dialect.Settings
		hide   []string
		start  time.Time
		want   map[string]string
	}{
		"x-ratelimit unix, mid-window": {dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetUnix}, nil, t0,
			map[string]string{"PROFILE": "sliding-window-counter", "RL_LIMIT": "5", "RL_WINDOW": "10s"}},
		"x-ratelimit delta, window start": {dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetDelta}, nil, time.Unix(1_800_000_000, 100_000_000),
			map[string]string{"PROFILE": "sliding-window-counter", "RL_LIMIT": "5", "RL_WINDOW": "10s"}},
		"status, no Retry-After": {dialect.Settings{Dialect: dialect.Status}, []string{"Retry-After"}, time.Unix(1_800_000_000, 100_000_000),
			map[string]string{"PROFILE": "sliding-window-counter", "RL_LIMIT": "5", "RL_WINDOW": "10s", "DIALECT": "status"}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			c := base(profile.SlidingWindowCounter, 5, 10*time.Second)
			c.Answer = tc.answer
			s := serve(t, c, tc.start, tc.hide...)
			sess, err := probeOf(t, s, "", probe.DefaultBudget, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			g := probe.Suggest(sess, "")
			got := settings(g)
			var out bytes.Buffer
			probe.Report{Endpoint: s.url, Local: true, Session: sess, Suggest: g}.Write(&out)
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s=%q, want %q\n%s", k, got[k], v, out.String())
				}
			}
			if n := s.count.Load(); n > int64(probe.DefaultBudget) {
				t.Errorf("%d requests, the budget %d", n, probe.DefaultBudget)
			}
		})
	}
}
