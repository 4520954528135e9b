package modeltest

import (
	"fmt"
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
	subtests(t, QueueProperties(), q)
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
	forQueues(q, 0x1b, func(c queueCase) {
		var st model.State
		now := t0
		var out []time.Time
		for range steps {
			now = now.Add(time.Duration(c.r.Int64N(int64(time.Second/time.Microsecond)/int64(c.rate*2)+1)) * time.Microsecond)
			var d model.Decision
			st, d = c.m.Step(st, model.Request{Cost: 1}, now)
			if d.Allowed {
				out = append(out, now.Add(d.Wait))
			}
		}
		slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
		for i := range out {
			for j := i; j < len(out); j++ {
				span := out[j].Sub(out[i]).Seconds()
				if n := float64(j - i + 1); n > 1+float64(c.delay)+c.rate*span+1e-6 {
					t.Fatalf("%v: %v answers left within %.6fs", c, n, span)
				}
			}
		}
	})
}

// TestQueueBound (LB-2): B + 1 + k requests at one instant on an idle key:
// B + 1 allowed, the k others refused at once with a Retry-After.
func TestQueueBound(t testing.TB, q Queue) {
	forQueues(q, 0x2b, func(c queueCase) {
		now := t0.Add(time.Duration(c.r.Int64N(int64(time.Hour))))
		var st model.State
		k := 1 + c.r.IntN(4)
		for i := range c.burst + 1 + k {
			var d model.Decision
			st, d = c.m.Step(st, model.Request{Cost: 1}, now)
			switch {
			case i <= c.burst && !d.Allowed:
				t.Fatalf("%v: request %d of a burst refused with %d places ahead", c, i, i)
			case i > c.burst && (d.Allowed || d.Wait != 0 || d.RetryAfter < 1):
				t.Fatalf("%v: request %d of a burst, the queue full: %+v, want refused at once", c, i, d)
			}
		}
	})
}

// TestQueueNoOverDelay (LB-3): on an idle key the i-th (from 0) of a burst
// of queued requests is held at most i/R (less D turns); none is held when
// it finds the queue empty.
func TestQueueNoOverDelay(t testing.TB, q Queue) {
	forQueues(q, 0x3b, func(c queueCase) {
		now := t0.Add(time.Duration(c.r.Int64N(int64(time.Hour))))
		var st model.State
		for i := range c.burst + 1 {
			var d model.Decision
			st, d = c.m.Step(st, model.Request{Cost: 1}, now)
			most := time.Duration(float64(max(i-c.delay, 0))/c.rate*float64(time.Second)) + time.Millisecond
			if !d.Allowed || d.Wait > most {
				t.Fatalf("%v: request %d held %v, want at most %v", c, i, d.Wait, most)
			}
		}
		// Idle long enough for the queue to drain: answered at once.
		if _, d := c.m.Step(st, model.Request{Cost: 1}, now.Add(time.Duration(float64(c.burst+2)/c.rate*float64(time.Second)))); !d.Allowed || d.Wait != 0 {
			t.Fatalf("%v: after the queue drained: %+v, want answered at once", c, d)
		}
	})
}

// queueCase is one seed's leaky bucket: its random stream, its B, R and D
// (queueParams) and the model under test.
type queueCase struct {
	seed  uint64
	r     *rand.Rand
	burst int
	rate  float64
	delay int
	m     model.Model
}

// String names the case in a failure.
func (c queueCase) String() string {
	return fmt.Sprintf("seed %d (B %d, R %.3f, D %d)", c.seed, c.burst, c.rate, c.delay)
}

// forQueues runs f on one queue per seed, each drawn from its own stream.
func forQueues(q Queue, stream uint64, f func(c queueCase)) {
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, stream))
		burst, rate, delay := queueParams(r)
		f(queueCase{seed: seed, r: r, burst: burst, rate: rate, delay: delay, m: q.New(burst, rate, delay)})
	}
}
