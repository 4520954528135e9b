package histcheck

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rlspec/rlspec/model"
)

// randomLogModel is a sliding log of limit 1–3 whose window is a few
// milliseconds (entries leave inside the requests) or about a second
// (Reset and a refusal's Retry-After move by a second within them).
func randomLogModel(rt *rapid.T) model.SlidingLog {
	w := rapid.SampledFrom([]int{1, 2, 3, 5, 8, 999, 1000, 1001, 2000}).Draw(rt, "window_ms")
	return model.SlidingLog{Limit: rapid.IntRange(1, 3).Draw(rt, "limit"), Window: time.Duration(w) * time.Millisecond}
}

// TestLogZoneMatchesEveryPlacement: the sliding log's zones accept a
// key's requests, in order, exactly when some decision time of each,
// tried millisecond by millisecond, explains every response so far; the
// requests answered as the model decides, now and then from the state
// before the previous one (racing), often corrupted or lost. A
// zone that stood for a log no placement reaches (an entry's bound
// dropped, two placements' logs merged into one box) or lost one (a case,
// a second of a refusal or a bound too many) fails it.
func TestLogZoneMatchesEveryPlacement(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		m := randomLogModel(rt)
		r, ok := logRulesOf(m)
		if !ok {
			rt.Fatalf("%T has no zone rules", m)
		}
		sameAcceptance[logZone](rt, m, r, randomZoneOps(rt, m, r.tick(), true))
	})
}

// TestLogZoneStepIsEveryPlacement: from a log known exactly, the zones
// of one request hold exactly the states (decision time and log after)
// its placements, millisecond by millisecond, lead to where the model's
// decision answers the response: each case's bounds on t, to the
// millisecond, whichever seconds the interval and the entries' leaving
// cross (where TestLogZoneMatchesEveryPlacement sees only whether some
// placement is left).
func TestLogZoneStepIsEveryPlacement(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		m := randomLogModel(rt)
		r, _ := logRulesOf(m)
		const end = int64(1_800_000_001_000) // a second's end, ms
		// The log: up to Limit entries, ascending, and T at or after them;
		// often the oldest + W a few ms from a whole second (Reset's edge).
		var log []int64
		at := end - int64(rapid.IntRange(0, 2500).Draw(rt, "first"))
		if rapid.Bool().Draw(rt, "edge") {
			at = end - 1000*int64(rapid.IntRange(0, 2).Draw(rt, "secs")) - r.w + int64(rapid.IntRange(-3, 3).Draw(rt, "off"))
		}
		n := m.Limit // full: refused until the oldest leaves
		if rapid.Bool().Draw(rt, "room") {
			n = rapid.IntRange(0, m.Limit-1).Draw(rt, "entries")
		}
		for ; n > 0; n-- {
			log = append(log, at)
			at += int64(rapid.IntRange(0, 600).Draw(rt, "gap"))
		}
		T := at
		lo := T - int64(rapid.IntRange(0, 30).Draw(rt, "back"))
		hi := max(lo, T) + int64(rapid.IntRange(0, 1500).Draw(rt, "len"))
		st := model.State{Found: len(log) > 0, Log: model.EncodeLog(log)}
		_, d := m.Step(st, spendOne, time.UnixMilli(rapid.Int64Range(max(lo, T), hi).Draw(rt, "at")))
		out := answered(rt, d)
		if got, want := stepPoints(m, log, T, lo, hi, out); !maps.Equal(got, want) {
			rt.Fatalf("log %v, T %d, %d..%d, %+v: zones hold %v, placements lead to %v", log, T, lo, hi, out, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
		}
	})
}

// TestLogZoneResetEdges: TestLogZoneStepIsEveryPlacement's comparison,
// every combination near the edges of Reset: the one entry of a full log
// (Limit 1) W + a few ms before a whole second S, requests in flight
// across a whole second B <= S (ρ, t's milliseconds into its second, 999
// or 0), allowed or refused, Reset from 1 s before B to 4 s after.
func TestLogZoneResetEdges(t *testing.T) {
	const b = int64(1_800_000_001_000) // B, ms
	for _, w := range []int64{1, 999, 1000, 1001, 2000} {
		m := model.SlidingLog{Limit: 1, Window: time.Duration(w) * time.Millisecond}
		for s := b; s <= b+2000; s += 1000 {
			for l := s - w - 2; l <= s-w+2; l++ {
				for lo := b - 3; lo <= b+1; lo++ {
					for hi := max(lo, l); hi <= lo+3; hi++ {
						for reset := b/1000 - 1; reset <= b/1000+4; reset++ {
							for _, status := range []int{http.StatusOK, http.StatusTooManyRequests} {
								out := opOutput{Status: status, HasHeaders: true, Reset: reset}
								if got, want := stepPoints(m, []int64{l}, l, lo, hi, out); !maps.Equal(got, want) {
									t.Fatalf("W %d ms, log [%d], %d..%d, %d Reset %d: zones hold %v, placements lead to %v", w, l, lo, hi, status, reset, slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
								}
							}
						}
					}
				}
			}
		}
	}
}

// stepPoints are the states (decision time and log after) a request
// decided in lo..hi, answered out, leads the log (log, T) to: on its zones
// (got), and placed millisecond by millisecond where the model's decision
// answers out (want).
func stepPoints(m model.SlidingLog, log []int64, T, lo, hi int64, out opOutput) (got, want map[string]bool) {
	r, _ := logRulesOf(m)
	vals := append([]int64{0, T}, log...) // the log as a zone: every variable pinned
	z := vdbm{len(vals), make([]int64, len(vals)*len(vals))}
	for i, a := range vals {
		for j, b := range vals {
			z.d[i*z.n+j] = a - b
		}
	}
	zs := r.next(r.canonical(z.zone(), lo), lo, hi, out, 1)
	st := model.State{Found: len(log) > 0, Log: model.EncodeLog(log)}
	o := StepOracle{Model: m, ResetSlack: 1}
	got, want = map[string]bool{}, map[string]bool{}
	for t := max(lo, T); t <= hi; t++ {
		next, d := m.Step(st, spendOne, time.UnixMilli(t))
		if out.Unknown || o.matches(d, out) {
			want[fmt.Sprint(t, liveAfter(model.DecodeLog(next.Log), t-r.w))] = true
		}
		for _, z := range zs {
			if p, ok := pointAt(z.view(), t); ok {
				got[fmt.Sprint(t, p)] = true
			}
		}
	}
	return got, want
}

// pointAt is the log of the point of log zone v decided at t, when v
// holds one: each entry the value v pins it to, or t.
func pointAt(v vdbm, t int64) ([]int64, bool) {
	x := make([]int64, v.n)
	x[lT] = t
	for i := lL; i < v.n; i++ {
		x[i] = t
		if lo, hi := -v.at(0, i), v.at(i, 0); lo == hi {
			x[i] = lo
		}
	}
	for i := range v.n {
		for j := range v.n {
			if x[i]-x[j] > v.at(i, j) {
				return nil, false
			}
		}
	}
	return x[lL:], true
}

// liveAfter is the entries of log after cut, as model.SlidingLog keeps them.
func liveAfter(log []int64, cut int64) []int64 {
	for len(log) > 0 && log[0] <= cut {
		log = log[1:]
	}
	return log
}

// TestLogZoneKeepsEntriesTogether: with a window of 1 ms an entry is live
// in its own millisecond only. The first request, allowed with one place
// left, decided anywhere in [0, 7] ms; the second, allowed with none left,
// in [5, 9], so in the first's millisecond (it is still live), in [5, 7].
// The log is then two entries of one millisecond: a third request in
// [7, 9] finds both live or none, and cannot be allowed with none left
// (one live). The box of the zones after two (either entry anywhere in
// [5, 7], apart from the other and from T) would let it: the zones refuse
// it, and the box is shown to accept it, so the history tells them apart.
func TestLogZoneKeepsEntriesTogether(t *testing.T) {
	m := model.SlidingLog{Limit: 2, Window: time.Millisecond}
	r, _ := logRulesOf(m)
	const at = int64(1_800_000_000_500) // ms
	ok := func(lo, hi int64, rem int) zoneOp {
		return zoneOp{at + lo, at + hi, opOutput{Status: http.StatusOK, HasHeaders: true, Rem: rem, Reset: 1_800_000_001}}
	}
	ops := []zoneOp{ok(0, 7, 1), ok(5, 9, 0), ok(7, 9, 0)}
	got, want := zoneAccepts[logZone](r, ops), bruteAccepts(m, r.tick(), ops)
	if !got[1] || !want[1] || got[2] || want[2] {
		t.Fatalf("zones %v, every placement %v; want [true true false]", got, want)
	}
	zs := r.next(r.initial(), ops[0].lo, ops[0].hi, ops[0].out, 1)
	if len(zs) != 1 {
		t.Fatalf("first request: %d zones, want 1", len(zs))
	}
	zs = r.next(r.canonical(zs[0], ops[1].lo), ops[1].lo, ops[1].hi, ops[1].out, 1)
	if len(zs) != 1 {
		t.Fatalf("second request: %d zones, want 1", len(zs))
	}
	// The box: every bound between two variables other than 0 the sum of
	// their bounds against 0.
	box := zs[0].view().clone()
	for i := 1; i < box.n; i++ {
		for j := 1; j < box.n; j++ {
			if i != j {
				box.d[i*box.n+j] = box.at(i, 0) + box.at(0, j)
			}
		}
	}
	third := ops[2]
	if len(r.next(r.canonical(box.zone(), third.lo), third.lo, third.hi, third.out, 1)) == 0 {
		t.Fatalf("the box refuses the third request too: the test tells nothing apart")
	}
}
