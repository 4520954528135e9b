package fakeserver

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/profile"
)

// holds records the turns the server held answers for, instead of waiting.
type holds struct {
	mu sync.Mutex
	d  []time.Duration
}

func (h *holds) hold(_ context.Context, d time.Duration) bool {
	h.mu.Lock()
	h.d = append(h.d, d)
	h.mu.Unlock()
	return true
}

// stores are the reference's stores a design is served on: a file of
// SQLite, or a fresh database of one PostgreSQL cluster started for t.
func stores(t *testing.T) map[string]func(tb testing.TB, c *Config) {
	var cl *pgcluster.Cluster
	n := 0
	return map[string]func(tb testing.TB, c *Config){
		"sqlite": func(testing.TB, *Config) {},
		"postgres": func(tb testing.TB, c *Config) {
			if cl == nil {
				var err error
				cl, err = pgcluster.Start(context.Background())
				if errors.Is(err, pgcluster.ErrNotInstalled) {
					tb.Skip(err.Error())
				}
				if err != nil {
					tb.Fatal(err)
				}
				t.Cleanup(func() { _ = cl.Close() })
			}
			n++
			dsn, err := cl.CreateDatabase(context.Background(), fmt.Sprintf("designs%d", n))
			if err != nil {
				tb.Fatal(err)
			}
			c.Store, c.DatabaseURL = StorePostgres, dsn
		},
	}
}

// concrete are the dialects a server answers in.
func concrete() []dialect.Dialect {
	var ds []dialect.Dialect
	for _, d := range dialect.Dialects() {
		if d.Concrete() {
			ds = append(ds, d)
		}
	}
	return ds
}

func read(d dialect.Dialect, w *httptest.ResponseRecorder, now time.Time) dialect.Observation {
	return dialect.Settings{Dialect: d}.Read(dialect.Response{Status: w.Code, Header: w.Header(), Body: w.Body.Bytes(), Received: now})
}

// TestLeakyBucketServed: B + 1 requests at one instant are allowed, each
// held for its turn (i/R), the next refused at once with Retry-After; in
// every dialect, on both stores.
func TestLeakyBucketServed(t *testing.T) {
	for name, store := range stores(t) {
		for _, d := range concrete() {
			t.Run(name+"/"+string(d), func(t *testing.T) {
				h := &holds{}
				s := newTest(t, func(c *Config) {
					c.Profile, c.Burst, c.Rate, c.Hold = profile.LeakyBucket, 3, 2, h.hold
					c.Answer.Dialect = d
					store(t, c)
				})
				for i := range 4 {
					w := s.do(get("alice"))
					ob := read(d, w, t0)
					if w.Code != 200 || (d != dialect.Status && (ob.Err != nil || ob.Limit != 4 || ob.Remaining != int64(3-i))) {
						t.Fatalf("request %d: %d %+v %v", i, w.Code, ob, w.Header())
					}
				}
				w := s.do(get("alice"))
				if ob := read(d, w, t0); w.Code != 429 || ob.RetryAfter < time.Second {
					t.Fatalf("the queue full: %d %+v", w.Code, ob)
				}
				if want := []time.Duration{500 * time.Millisecond, time.Second, 1500 * time.Millisecond}; len(h.d) != 3 ||
					h.d[0] != want[0] || h.d[1] != want[1] || h.d[2] != want[2] {
					t.Fatalf("held %v, want %v", h.d, want)
				}
				if w := s.do(get("bob")); w.Code != 200 || len(h.d) != 3 {
					t.Fatalf("another key waited behind alice's queue: %d, held %v", w.Code, h.d)
				}
			})
		}
	}
}

// TestLeakyBucketModes: RL_LB_MODE=nodelay answers at once and frees the
// places at R; RL_DELAY=D answers the first D queued requests at once.
func TestLeakyBucketModes(t *testing.T) {
	h := &holds{}
	s := newTest(t, func(c *Config) {
		c.Profile, c.Burst, c.Rate, c.NoDelay, c.Hold = profile.LeakyBucket, 2, 1, true, h.hold
	})
	for range 3 {
		if w := s.do(get("alice")); w.Code != 200 {
			t.Fatalf("nodelay: %d", w.Code)
		}
	}
	if w := s.do(get("alice")); w.Code != 429 || len(h.d) != 0 {
		t.Fatalf("nodelay, the places taken: %d, held %v", w.Code, h.d)
	}
	s.clk.Advance(time.Second)
	if w := s.do(get("alice")); w.Code != 200 {
		t.Fatalf("nodelay, a place freed: %d", w.Code)
	}
	h = &holds{}
	s = newTest(t, func(c *Config) {
		c.Profile, c.Burst, c.Rate, c.QueueDelay, c.Hold = profile.LeakyBucket, 3, 1, 1, h.hold
	})
	for range 4 {
		s.do(get("alice"))
	}
	if len(h.d) != 2 || h.d[0] != time.Second || h.d[1] != 2*time.Second {
		t.Fatalf("RL_DELAY=1: held %v, want [1s 2s]", h.d)
	}
}

func TestLeakyBucketFromEnv(t *testing.T) {
	env := map[string]string{"RL_PROFILE": "leaky-bucket", "RL_BURST": "4", "RL_RATE": "0.5", "RL_DELAY": "2", "RL_LB_MODE": "nodelay"}
	c, err := ConfigFromEnv(envflag.Map(env))
	if err != nil || c.Profile != profile.LeakyBucket || c.QueueDelay != 2 || !c.NoDelay || c.Burst != 4 {
		t.Fatalf("%+v %v", c, err)
	}
	for k, v := range map[string]string{"RL_DELAY": "9", "RL_LB_MODE": "burst"} {
		bad := map[string]string{"RL_PROFILE": "leaky-bucket", "RL_BURST": "4", k: v}
		if _, err := ConfigFromEnv(func(q string) (string, bool) { v, ok := bad[q]; return v, ok }); err == nil {
			t.Errorf("%s=%s accepted", k, v)
		}
	}
}

// TestDesignValidated: Validate builds the registry's design, so a counter
// asked to open windows at a first request is refused, not started.
func TestDesignValidated(t *testing.T) {
	c := DefaultConfig()
	c.Profile, c.Align = profile.SlidingWindowCounter, profile.AlignFirstRequest
	if err := c.Validate(); err == nil {
		t.Error("sliding-window-counter with RL_WINDOW_ALIGN=first-request validated")
	}
	c.Align = profile.AlignKeyGrid
	if err := c.Validate(); err != nil {
		t.Errorf("key-grid: %v", err)
	}
}

// TestWindowCounterServed: the weighted estimate over HTTP, in every
// dialect, on both stores: N at the end of a window, then (1 − 0.6)·N
// fewer just after it.
func TestWindowCounterServed(t *testing.T) {
	for name, store := range stores(t) {
		for _, d := range concrete() {
			t.Run(name+"/"+string(d), func(t *testing.T) {
				start := time.Unix(t0.Unix()/10*10+10, 0)
				s := newTest(t, func(c *Config) {
					c.Profile, c.Limit, c.Window = profile.SlidingWindowCounter, 5, 10*time.Second
					c.Answer.Dialect = d
					store(t, c)
				})
				s.clk.Set(start.Add(-time.Second))
				for i := range 6 {
					if w := s.do(get("alice")); (w.Code == 200) != (i < 5) {
						t.Fatalf("request %d before the window ends: %d", i, w.Code)
					}
				}
				s.clk.Set(start.Add(4 * time.Second)) // e = 5·0.6 = 3: two more
				for i := range 3 {
					w := s.do(get("alice"))
					if (w.Code == 200) != (i < 2) {
						t.Fatalf("request %d 4 s into the window: %d %v", i, w.Code, w.Header())
					}
					if ob := read(d, w, s.clk.Now()); d != dialect.Status && w.Code == 200 && ob.Limit != 5 {
						t.Fatalf("Limit %d", ob.Limit)
					}
				}
			})
		}
	}
}

// TestGridAlignsServed: key-grid keeps the key's grid after an idle gap;
// grid anchors every key's windows at the server's start.
func TestGridAlignsServed(t *testing.T) {
	s := newTest(t, func(c *Config) {
		c.Profile, c.Align, c.Limit, c.Window = profile.FixedWindow, profile.AlignKeyGrid, 1, 10*time.Second
	})
	s.clk.Set(time.Unix(1003, 0))
	if w := s.do(get("alice")); w.Code != 200 || reset(w) != 1013 {
		t.Fatalf("key-grid, first: %d %v", w.Code, w.Header())
	}
	s.clk.Set(time.Unix(1028, 0))
	if w := s.do(get("alice")); w.Code != 200 || reset(w) != 1033 {
		t.Fatalf("key-grid, after the gap: %d %v", w.Code, w.Header())
	}
	g := newTest(t, func(c *Config) {
		c.Profile, c.Align, c.Limit, c.Window, c.DBPath = profile.FixedWindow, profile.AlignGrid, 1, 10*time.Second, filepath.Join(t.TempDir(), "g.db")
	})
	g.clk.Advance(13 * time.Second)
	if w := g.do(get("bob")); w.Code != 200 || reset(w) != t0.Unix()+20 {
		t.Fatalf("grid: %d %v, want Reset at the start + 20 s", w.Code, w.Header())
	}
}
