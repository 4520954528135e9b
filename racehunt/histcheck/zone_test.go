package histcheck

import (
	"net/http"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rlspec/rlspec/model"
)

// zoneOp is one request of a key in linearization order: its interval in
// ticks of the design's clock (unix microseconds for the buckets,
// milliseconds for the sliding log) and its output.
type zoneOp struct {
	lo, hi int64
	out    opOutput
}

// bruteAccepts reports, after each op of ops, whether some decision time
// in each interval so far, in ticks of tick ns and in order, explains
// every output under m: every placement is tried, no state merged but
// equal ones.
func bruteAccepts(m model.Model, tick int64, ops []zoneOp) []bool {
	type st struct {
		m model.State
		t int64
	}
	o := StepOracle{Model: m, ResetSlack: 1}
	set := map[st]bool{{}: true}
	var out []bool
	for _, op := range ops {
		next := map[st]bool{}
		for s := range set {
			if op.out.Unknown {
				next[s] = true
			}
			for t := max(op.lo, s.t); t <= op.hi; t++ {
				n, d := m.Step(s.m, spendOne, time.Unix(0, t*tick))
				if op.out.Unknown || o.matches(d, op.out) {
					next[st{n, t}] = true
				}
			}
		}
		set = next
		out = append(out, len(set) > 0)
	}
	return out
}

// zoneAccepts is bruteAccepts on r's zones, stepped as porcupine steps
// them (zoneMemo.step).
func zoneAccepts[Z comparable](r zoneRule[Z], ops []zoneOp) []bool {
	memo := newZoneMemo(r, 0)
	set := []Z{r.initial()}
	var out []bool
	for i, op := range ops {
		in := opInput{Index: i, From: op.lo * r.tick(), To: op.hi * r.tick()}
		var next []Z
		for _, z := range set {
			next = append(next, memo.step(z, in, op.out)...)
		}
		set = next
		out = append(out, len(set) > 0)
	}
	return out
}

// randomZoneOps are n requests of one key under m, a few ticks (of tick
// ns: the model's clock) long around a second's end (so that Remaining,
// the state's refill or leaving and Reset all change inside them), each
// answered as m decides at a random time inside it in order (with races,
// now and then from the state before the previous request: a
// check-then-act race, its write losing the other's), then often
// corrupted (answered).
func randomZoneOps(rt *rapid.T, m model.Model, tick int64, races bool) []zoneOp {
	end := int64(1_800_000_001) * int64(time.Second) / tick // a second's end
	var st, before model.State
	var ops []zoneOp
	t := end - int64(rapid.IntRange(0, 40).Draw(rt, "start"))
	for n := rapid.IntRange(1, 6).Draw(rt, "n"); n > 0; n-- {
		lo := t - int64(rapid.IntRange(0, 6).Draw(rt, "back"))
		hi := t + int64(rapid.IntRange(0, 12).Draw(rt, "len"))
		at := rapid.Int64Range(t, hi).Draw(rt, "at")
		read := st
		if races && rapid.IntRange(0, 4).Draw(rt, "race") == 0 {
			read = before
		}
		next, d := m.Step(read, spendOne, time.Unix(0, at*tick))
		before, st, t = st, next, at+int64(rapid.IntRange(0, 8).Draw(rt, "gap"))
		ops = append(ops, zoneOp{lo, hi, answered(rt, d)})
	}
	return ops
}

// answered is the response to decision d, often corrupted: Remaining or
// Reset off, the status flipped or another, the headers left out, the
// response lost.
func answered(rt *rapid.T, d model.Decision) opOutput {
	out := opOutput{Status: http.StatusOK, HasHeaders: true, Rem: d.Remaining, Reset: d.Reset}
	if !d.Allowed {
		out.Status = http.StatusTooManyRequests
	}
	switch rapid.IntRange(0, 12).Draw(rt, "corrupt") {
	case 0:
		out.Rem += rapid.SampledFrom([]int{-1, 1}).Draw(rt, "drem")
	case 1:
		out.Reset += int64(rapid.SampledFrom([]int{-2, 2}).Draw(rt, "dreset"))
	case 2:
		out.Status = http.StatusOK + http.StatusTooManyRequests - out.Status
	case 3:
		out.HasHeaders = false
	case 4:
		out = opOutput{Unknown: true}
	case 5:
		out.Status = http.StatusConflict
	}
	return out
}

// sameAcceptance fails rt unless r's zones accept ops, after each op,
// exactly when every placement of m does.
func sameAcceptance[Z comparable](rt *rapid.T, m model.Model, r zoneRule[Z], ops []zoneOp) {
	want, got := bruteAccepts(m, r.tick(), ops), zoneAccepts(r, ops)
	for i := range want {
		if got[i] != want[i] {
			rt.Fatalf("after op %d of %+v: zones accept %v, every placement %v", i, ops, got[i], want[i])
		}
	}
}

// TestZoneMatchesEveryPlacement: the zones accept a key's requests, in
// order, exactly when some decision time of each, tried microsecond by
// microsecond, explains every response so far, for token and leaky
// buckets whose tokens come back every few microseconds. A zone that
// stood for a state no placement reaches (two placements merged into
// one box, a bound dropped) or lost one (a case or a bound too many)
// fails it.
func TestZoneMatchesEveryPlacement(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		burst := rapid.IntRange(1, 3).Draw(rt, "burst")
		rate := 1e6 / float64(rapid.SampledFrom([]int{1, 2, 4, 5, 8}).Draw(rt, "interval"))
		var m model.Model = model.TokenBucket{Burst: burst, Rate: rate}
		if rapid.Bool().Draw(rt, "leaky") {
			m = model.LeakyBucket{Burst: burst - 1, Rate: rate, Delay: 0, NoDelay: rapid.Bool().Draw(rt, "nodelay")}
		}
		r, ok := bucketRulesOf(m)
		if !ok {
			rt.Fatalf("%T has no zone rules", m)
		}
		sameAcceptance[zone](rt, m, r, randomZoneOps(rt, m, r.tick(), false))
	})
}

// TestZoneKeepsEachPlacementWithItsState: a full bucket's first request
// placed anywhere in [0, 10] µs fills at its decision time + 1 interval;
// the second, decided no earlier, then finds one token taken and another
// on its way back at most, never two. The box of those states (any fill
// instant with any decision time) would let the second be decided before
// the first filled late, two tokens short: the zones refuse that, and a
// box of them is shown to accept it, so the history tells the two apart.
func TestZoneKeepsEachPlacementWithItsState(t *testing.T) {
	m := model.TokenBucket{Burst: 3, Rate: 1e6 / 100} // 100 µs a token
	r, _ := bucketRulesOf(m)
	const at = int64(1_800_000_000_500_000)
	reset := (at+400)/1_000_000 + 1
	first := zoneOp{at, at + 10, opOutput{Status: http.StatusOK, HasHeaders: true, Rem: 2, Reset: reset}}
	ok := zoneOp{at, at + 10, opOutput{Status: http.StatusOK, HasHeaders: true, Rem: 1, Reset: reset}}
	short := zoneOp{at, at + 10, opOutput{Status: http.StatusOK, HasHeaders: true, Rem: 0, Reset: reset}}
	if got := zoneAccepts[zone](r, []zoneOp{first, ok}); !got[1] {
		t.Fatalf("one token taken by the first request: refused")
	}
	if got, want := zoneAccepts[zone](r, []zoneOp{first, short}), bruteAccepts(m, r.tick(), []zoneOp{first, short}); got[1] || want[1] {
		t.Fatalf("two tokens short after one request: zones %v, every placement %v", got[1], want[1])
	}
	// The box of the first request's states.
	z := r.next(zone{}, first.lo, first.hi, first.out, 1)
	if len(z) != 1 {
		t.Fatalf("first request: %d zones, want 1", len(z))
	}
	box := z[0]
	box[zF][zT], box[zT][zF] = box[zF][0]+box[0][zT], box[zT][0]+box[0][zF]
	if len(r.next(box, short.lo, short.hi, short.out, 1)) == 0 {
		t.Fatalf("the box refuses the short answer too: the test tells nothing apart")
	}
}

// TestZoneLostResponseLeavesItsState: a request without a response may
// never have taken effect, and a later one may then be decided before its
// interval: the zones it leaves keep that placement (it was once lost by
// making the zone canonical at the lost request's start).
func TestZoneLostResponseLeavesItsState(t *testing.T) {
	m := model.TokenBucket{Burst: 1, Rate: 1e6} // 1 µs a token
	r, _ := bucketRulesOf(m)
	const e = int64(1_800_000_001_000_000)
	ops := []zoneOp{
		{e, e, opOutput{Unknown: true}},
		// Decided at e − 1 only: Reset 1,800,000,001 (within 1 s of it).
		{e - 1, e + 1, opOutput{Status: http.StatusOK, HasHeaders: true, Rem: 0, Reset: 1_800_000_000}},
	}
	if got, want := zoneAccepts[zone](r, ops), bruteAccepts(m, r.tick(), ops); !want[1] || !got[1] {
		t.Fatalf("the second request decided before the lost one: zones %v, every placement %v", got[1], want[1])
	}
}
