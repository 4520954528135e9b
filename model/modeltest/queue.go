package modeltest

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
)

// Queue is a leaky bucket under test (profiles.md leaky-bucket, LB_MODE
// delay): New builds it with B queue places, R requests per second and
// RL_DELAY's D.
type Queue struct {
	New func(burst int, rate float64, delay int) model.Model
}

// QueueProperties are the leaky bucket's clauses as properties of its
// decisions (Allowed and Wait at a given time), by name.
func QueueProperties() map[string]func(testing.TB, Queue) {
	return map[string]func(testing.TB, Queue){
		"OutputRate":  TestQueueOutputRate,
		"QueueBound":  TestQueueBound,
		"NoOverDelay": TestQueueNoOverDelay,
	}
}

// RunQueue runs every queue property as a subtest.
func RunQueue(t *testing.T, q Queue) {
	t.Helper()
	for name, test := range QueueProperties() {
		t.Run(name, func(t *testing.T) { test(t, q) })
	}
}

// queueParams draws B in [0, 5], R in [0.5, 4.5) and D in [0, B].
func queueParams(r *rand.Rand) (burst int, rate float64, delay int) {
	burst = r.IntN(6)
	return burst, 0.5 + 4*r.Float64(), r.IntN(burst + 1)
}

// TestQueueOutputRate (LB-1): over random arrivals, the allowed answers
// (arrival + Wait) leave no faster than R: in any span [t1, t2] of their
// departures at most 1 + D + R·(t2 − t1).
func TestQueueOutputRate(t testing.TB, q Queue) {
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 0x1b))
		burst, rate, delay := queueParams(r)
		m := q.New(burst, rate, delay)
		var st model.State
		now := t0
		var out []time.Time
		for range steps {
			now = now.Add(time.Duration(r.Int64N(int64(time.Second/time.Microsecond)/int64(rate*2)+1)) * time.Microsecond)
			var d model.Decision
			st, d = m.Step(st, model.Request{Cost: 1}, now)
			if d.Allowed {
				out = append(out, now.Add(d.Wait))
			}
		}
		slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
		for i := range out {
			for j := i; j < len(out); j++ {
				span := out[j].Sub(out[i]).Seconds()
				if n := float64(j - i + 1); n > 1+float64(delay)+rate*span+1e-6 {
					t.Fatalf("seed %d (B %d, R %.3f, D %d): %v answers left within %.6fs", seed, burst, rate, delay, n, span)
				}
			}
		}
	}
}

// TestQueueBound (LB-2): B + 1 + k requests at one instant on an idle key:
// B + 1 allowed, the k others refused at once with a Retry-After.
func TestQueueBound(t testing.TB, q Queue) {
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 0x2b))
		burst, rate, delay := queueParams(r)
		m := q.New(burst, rate, delay)
		now := t0.Add(time.Duration(r.Int64N(int64(time.Hour))))
		var st model.State
		k := 1 + r.IntN(4)
		for i := range burst + 1 + k {
			var d model.Decision
			st, d = m.Step(st, model.Request{Cost: 1}, now)
			switch {
			case i <= burst && !d.Allowed:
				t.Fatalf("seed %d (B %d, R %.3f): request %d of a burst refused with %d places ahead", seed, burst, rate, i, i)
			case i > burst && (d.Allowed || d.Wait != 0 || d.RetryAfter < 1):
				t.Fatalf("seed %d (B %d, R %.3f): request %d of a burst, the queue full: %+v, want refused at once", seed, burst, rate, i, d)
			}
		}
	}
}

// TestQueueNoOverDelay (LB-3): on an idle key the i-th (from 0) of a burst
// of queued requests is held at most i/R (less D turns); none is held when
// it finds the queue empty.
func TestQueueNoOverDelay(t testing.TB, q Queue) {
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 0x3b))
		burst, rate, delay := queueParams(r)
		m := q.New(burst, rate, delay)
		now := t0.Add(time.Duration(r.Int64N(int64(time.Hour))))
		var st model.State
		for i := range burst + 1 {
			var d model.Decision
			st, d = m.Step(st, model.Request{Cost: 1}, now)
			most := time.Duration(float64(max(i-delay, 0))/rate*float64(time.Second)) + time.Millisecond
			if !d.Allowed || d.Wait > most {
				t.Fatalf("seed %d (B %d, R %.3f, D %d): request %d held %v, want at most %v", seed, burst, rate, delay, i, d.Wait, most)
			}
		}
		// Idle long enough for the queue to drain: answered at once.
		if _, d := m.Step(st, model.Request{Cost: 1}, now.Add(time.Duration(float64(burst+2)/rate*float64(time.Second)))); !d.Allowed || d.Wait != 0 {
			t.Fatalf("seed %d (B %d, R %.3f): after the queue drained: %+v, want answered at once", seed, burst, rate, d)
		}
	}
}
