package histcheck

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rlspec/rlspec/model"
)

// TestCanonicalDecidesAlike: a state canonical at a time decides every
// request at or after that time as the state itself does, to the last
// field of the Decision, and leads to the same canonical next state, for
// every design canonical simplifies (random states reached by random
// steps). A canonical that dropped a live log entry, or called a bucket
// full a microsecond early, or dropped a violation still counted, fails
// here.
func TestCanonicalDecidesAlike(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		m := rapid.SampledFrom(canonModels).Draw(rt, "model")
		now := int64(1_800_000_000) * int64(time.Second)
		var st model.State
		times := []int64{now}
		for range rapid.IntRange(0, 8).Draw(rt, "steps") {
			now += rapid.Int64Range(0, 1500).Draw(rt, "gap") * int64(time.Millisecond)
			st, _ = m.Step(st, spendOne, time.Unix(0, now))
			times = append(times, now)
		}
		// Times where entries leave and buckets fill, give or take a
		// millisecond and a microsecond: a step's time plus a multiple of
		// the designs' intervals and windows.
		near := func(label string, from int64) int64 {
			ms, us := int64(time.Millisecond), int64(time.Microsecond)
			return max(from, rapid.SampledFrom(times).Draw(rt, label+" step")+
				rapid.Int64Range(0, 8).Draw(rt, label+" halves")*500*ms+
				rapid.Int64Range(-1, 1).Draw(rt, label+" ms")*ms+
				rapid.Int64Range(-1, 1).Draw(rt, label+" µs")*us)
		}
		at := near("at", now)
		c := canonical(m, st, at)
		for range 3 {
			t := near("t", at)
			for _, req := range []model.Request{spendOne, {Cost: 0}} {
				n1, d1 := m.Step(st, req, time.Unix(0, t))
				n2, d2 := m.Step(c, req, time.Unix(0, t))
				d1.Write, d2.Write = false, false
				if d1 != d2 {
					rt.Fatalf("%T at %d: %+v decides %+v, its canonical %+v at %d decides %+v", m, t, st, d1, c, at, d2)
				}
				if req.Cost > 0 && canonical(m, n1, t) != canonical(m, n2, t) {
					rt.Fatalf("%T at %d: next states %+v and %+v differ", m, t, n1, n2)
				}
			}
		}
	})
}

// canonModels are the designs canonical simplifies, with and without
// penalties, at settings whose intervals random steps a few seconds long
// meet.
var canonModels = []model.Model{
	model.TokenBucket{Burst: 3, Rate: 2},
	model.TokenBucket{Burst: 2, Rate: 1000},
	model.LeakyBucket{Burst: 2, Rate: 2},
	model.SlidingLog{Limit: 3, Window: 2 * time.Second},
	model.WindowCounter{Limit: 3, Window: 2 * time.Second},
	model.WindowCounter{Limit: 3, Window: 2 * time.Second, CountsRefused: true},
	model.Epoch{Limit: 2, Window: 2 * time.Second},
	// Penalties around designs: the violation record must survive.
	model.Penalties{Inner: model.SlidingLog{Limit: 2, Window: 2 * time.Second}, Tiers: testTiers},
	model.Penalties{Inner: model.TokenBucket{Burst: 2, Rate: 2}, Tiers: testTiers},
	model.Penalties{Inner: model.Epoch{Limit: 2, Window: 2 * time.Second}, Tiers: testTiers},
}

// testTiers are short penalty tiers: the second violation starts 1 s, the
// third 2 s, so that steps a few seconds long meet every tier and the ends
// of penalties.
var testTiers = []model.PenaltyTier{{Count: 2, Duration: time.Second}, {Count: 3, Duration: 2 * time.Second}}
