package modeltest

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
)

// Counter is a sliding-window counter under test (profiles.md
// sliding-window-counter): New builds it with N and W on the epoch's grid.
type Counter struct {
	New func(limit int, window time.Duration) model.Model
}

// CounterProperties are the sliding-window counter's clauses as properties
// of its decisions, by name: each recomputes the estimate
// e = p·(1 − (t − s)/W) + c from the allowed requests alone, never from
// the model's state.
func CounterProperties() map[string]func(testing.TB, Counter) {
	return map[string]func(testing.TB, Counter){
		"PerWindow":      TestCounterPerWindow,
		"WeightedBound":  TestCounterWeightedBound,
		"NoOverBlocking": TestCounterNoOverBlocking,
	}
}

// RunCounter runs every counter property as a subtest.
func RunCounter(t *testing.T, c Counter) {
	t.Helper()
	subtests(t, CounterProperties(), c)
}

// counted is one request of a counter walk with the estimate it found:
// e·W in milliseconds (p·(end − t) + c·W), against N·W.
type counted struct {
	at      time.Time
	allowed bool
	eW, nW  int64
	inWin   int // allowed before it in its own grid window
}

// counterWalk sends n requests at random times (bursts, pauses of up to
// two windows) and computes, for each, what it found.
func counterWalk(c Counter, seed uint64, n int) ([]counted, int, time.Duration) {
	r := rand.New(rand.NewPCG(seed, 0xc0))
	limit, window := 1+r.IntN(6), time.Duration(1+r.IntN(5))*time.Second
	m := c.New(limit, window)
	w := window.Milliseconds()
	var st model.State
	now := t0.Add(time.Duration(r.Int64N(w)) * time.Millisecond)
	allowed := map[int64]int{} // grid window index → allowed requests
	out := make([]counted, 0, n)
	for range n {
		switch r.IntN(10) {
		case 0:
			now = now.Add(time.Duration(r.Int64N(2*w)) * time.Millisecond)
		case 1, 2, 3:
		default:
			now = now.Add(time.Duration(r.Int64N(w/int64(limit)+1)) * time.Millisecond)
		}
		t := now.UnixMilli()
		k := t / w
		end := (k + 1) * w
		rec := counted{at: now, eW: int64(allowed[k-1])*(end-t) + int64(allowed[k])*w, nW: int64(limit) * w, inWin: allowed[k]}
		var d model.Decision
		st, d = m.Step(st, model.Request{Cost: 1}, now)
		rec.allowed = d.Allowed
		if d.Allowed {
			allowed[k]++
		}
		out = append(out, rec)
	}
	return out, limit, window
}

func forEachCounted(t testing.TB, c Counter, check func(r counted, limit int) string) {
	t.Helper()
	for seed := range uint64(seeds) {
		rs, limit, window := counterWalk(c, seed, steps)
		for i, r := range rs {
			if msg := check(r, limit); msg != "" {
				t.Fatalf("seed %d request %d at %v (N %d, W %v, e·W %d ms, allowed before in its window %d): %s",
					seed, i, r.at.UnixMilli(), limit, window, r.eW, r.inWin, msg)
			}
		}
	}
}

// TestCounterPerWindow (SWC-1): at most N allowed in any one grid window.
func TestCounterPerWindow(t testing.TB, c Counter) {
	forEachCounted(t, c, func(r counted, limit int) string {
		if r.allowed && r.inWin >= limit {
			return "allowed beyond N in one grid window"
		}
		return ""
	})
}

// TestCounterWeightedBound (SWC-2): no allowed request found e ≥ N + 1
// (the tolerance of 1 for rounding).
func TestCounterWeightedBound(t testing.TB, c Counter) {
	forEachCounted(t, c, func(r counted, limit int) string {
		if w := r.nW / int64(limit); r.allowed && r.eW >= r.nW+w {
			return "allowed although e ≥ N + 1"
		}
		return ""
	})
}

// TestCounterNoOverBlocking (SWC-3): a request that found e ≤ N − 2 is
// allowed.
func TestCounterNoOverBlocking(t testing.TB, c Counter) {
	forEachCounted(t, c, func(r counted, limit int) string {
		if w := r.nW / int64(limit); !r.allowed && r.eW <= r.nW-2*w {
			return "refused although e ≤ N − 2"
		}
		return ""
	})
}
