package model_test

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
)

var lbT0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// LB-2, LB-3: B + 1 + k requests at one instant on an idle key: B + 1
// allowed, the i-th answered i/R later; k refused, each at once.
func TestLeakyBucketQueue(t *testing.T) {
	m, err := model.NewLeakyBucket(3, 2, 0, false) // B = 3, R = 2/s
	if err != nil {
		t.Fatal(err)
	}
	var st model.State
	for i := range 3 + 1 + 2 {
		var d model.Decision
		st, d = m.Step(st, model.Request{Cost: 1}, lbT0)
		if i <= 3 {
			if want := time.Duration(i) * 500 * time.Millisecond; !d.Allowed || d.Wait != want {
				t.Fatalf("request %d: allowed=%v wait %v, want allowed after %v", i, d.Allowed, d.Wait, want)
			}
			if d.Remaining != 3-i || d.Limit != 4 {
				t.Errorf("request %d: Limit %d Remaining %d, want 4 and %d", i, d.Limit, d.Remaining, 3-i)
			}
			continue
		}
		if d.Allowed || d.Wait != 0 || d.RetryAfter < 1 {
			t.Fatalf("request %d (queue full): %+v, want refused at once with Retry-After", i, d)
		}
	}
}

// RL_DELAY and LB_MODE=nodelay: the first D queued requests are answered
// at once, the rest wait (less D turns); nodelay answers all at once, the
// places still freed at R.
func TestLeakyBucketDelayModes(t *testing.T) {
	for _, c := range []struct {
		name  string
		m     model.LeakyBucket
		waits []time.Duration
	}{
		{"delay=2", model.LeakyBucket{Burst: 4, Rate: 1, Delay: 2}, []time.Duration{0, 0, 0, time.Second, 2 * time.Second}},
		{"nodelay", model.LeakyBucket{Burst: 4, Rate: 1, NoDelay: true}, []time.Duration{0, 0, 0, 0, 0}},
	} {
		var st model.State
		for i, want := range c.waits {
			var d model.Decision
			st, d = c.m.Step(st, model.Request{Cost: 1}, lbT0)
			if !d.Allowed || d.Wait != want {
				t.Errorf("%s: request %d: %+v, want allowed after %v", c.name, i, d, want)
			}
		}
		if _, d := c.m.Step(st, model.Request{Cost: 1}, lbT0); d.Allowed {
			t.Errorf("%s: a sixth request at once was allowed: the places are freed at R, not at once", c.name)
		}
		if _, d := c.m.Step(st, model.Request{Cost: 1}, lbT0.Add(time.Second)); !d.Allowed {
			t.Errorf("%s: one place freed a second later, yet refused", c.name)
		}
	}
}

// LB-1: over random arrivals, allowed answers (arrival + Wait) leave no
// faster than R: in any span [t1, t2] of their departures at most
// 1 + D + R·(t2 − t1).
func TestLeakyBucketOutputRate(t *testing.T) {
	for seed := range uint64(50) {
		r := rand.New(rand.NewPCG(seed, 7))
		m := model.LeakyBucket{Burst: r.IntN(6), Rate: 0.5 + 4*r.Float64()}
		m.Delay = r.IntN(m.Burst + 1)
		var st model.State
		now := lbT0
		var out []time.Time
		for range 300 {
			now = now.Add(time.Duration(r.Int64N(int64(800 * time.Millisecond)))).Truncate(time.Microsecond) // the model counts in µs
			var d model.Decision
			st, d = m.Step(st, model.Request{Cost: 1}, now)
			if d.Allowed {
				out = append(out, now.Add(d.Wait))
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Before(out[j]) })
		for i := range out {
			for j := i; j < len(out); j++ {
				span := out[j].Sub(out[i]).Seconds()
				if n := float64(j - i + 1); n > 1+float64(m.Delay)+m.Rate*span+1e-6 {
					t.Fatalf("seed %d %+v: %v answers within %.3fs", seed, m, n, span)
				}
			}
		}
	}
}

func TestNewLeakyBucketRefuses(t *testing.T) {
	for _, c := range []struct {
		burst, delay int
		rate         float64
	}{{-1, 0, 1}, {2, 3, 1}, {2, -1, 1}, {2, 0, 0}, {2, 0, 2e6}} {
		if _, err := model.NewLeakyBucket(c.burst, c.rate, c.delay, false); err == nil {
			t.Errorf("NewLeakyBucket(%+v) accepted", c)
		}
	}
}
