package bound

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/model"
)

// burst sends six requests of one key at once and answers the i-th after
// spacing·i.
func burst(spacing int64) []Event {
	es := make([]Event, 6)
	for i := range es {
		es[i] = Event{ID: i, Key: "k", Send: epoch, Recv: epoch + ms + int64(i)*spacing, Allowed: true}
	}
	return es
}

// LB-1 at R = 2/s: six answers within 5 ms leave faster than R (at most
// 2 + 2·(0.005 + 1) fit); spaced 500 ms apart they do not.
func TestLeakyBucketOutputSpacing(t *testing.T) {
	if vs := LeakyBucket(burst(ms), 0, 2, DefaultTolerance); len(vs) != 1 || vs[0].Clause != clause.LB1 || len(vs[0].Events) < 5 {
		t.Fatalf("answered at once: %v", vs)
	}
	if vs := LeakyBucket(burst(500*ms), 0, 2, DefaultTolerance); len(vs) != 0 {
		t.Fatalf("spaced at 1/R: %v", vs)
	}
	// RL_DELAY=3 lets the first three of the queue leave at once.
	if vs := LeakyBucket(burst(ms), 3, 2, DefaultTolerance); len(vs) != 0 {
		t.Fatalf("RL_DELAY=3, six within 5 ms: %v", vs)
	}
	// Refused answers leave at once and count for nothing.
	es := burst(500 * ms)
	for i := range 10 {
		es = append(es, Event{ID: 10 + i, Key: "k", Send: epoch, Recv: epoch + ms})
	}
	if vs := LeakyBucket(es, 0, 2, DefaultTolerance); len(vs) != 0 {
		t.Fatalf("refusals counted: %v", vs)
	}
}

// No false verdicts: the leaky bucket's own answers (each sent after its
// Wait, with up to 50 ms of network either way) are never a violation.
func TestLeakyBucketNoFalseVerdicts(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 5))
		m := model.LeakyBucket{Burst: r.IntN(8), Rate: 0.5 + 8*r.Float64()}
		m.Delay = r.IntN(m.Burst + 1)
		var st model.State
		at := epoch
		var es []Event
		for i := range 400 {
			at += r.Int64N(int64(float64(time.Second)/m.Rate) + 1)
			in, out := r.Int64N(50*ms), r.Int64N(50*ms)
			var d model.Decision
			st, d = m.Step(st, model.Request{Cost: 1}, time.Unix(0, at+in).Truncate(time.Microsecond))
			es = append(es, Event{ID: i, Key: "k", Send: at, Recv: at + in + int64(d.Wait) + out, Allowed: d.Allowed})
		}
		if vs := LeakyBucket(es, m.Delay, m.Rate, DefaultTolerance); len(vs) > 0 {
			t.Fatalf("seed %d %+v: %v", seed, m, vs[0])
		}
	}
}
