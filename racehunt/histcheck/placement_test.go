package histcheck

import (
	"net/http"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/rlspec/rlspec/model"
)

// placeEverywhere is StepOracle.place as it was before it skipped hints:
// every one of Placements tried.
func placeEverywhere(o StepOracle, s keyState, in opInput, out opOutput) []keyState {
	var next []keyState
	lo, hi := max(in.From-int64(o.Tol), s.T), in.To+int64(o.Tol)
	if lo > hi {
		return next
	}
	var seen []model.State
	for _, t := range o.Placements(s.M, lo, hi, in.Hints...) {
		m, d := o.Model.Step(s.M, spendOne, time.Unix(0, t))
		if !out.Unknown && !o.matches(d, out) {
			continue
		}
		if m = canonical(o.Model, m, t); slices.Contains(seen, m) {
			continue
		}
		seen = append(seen, m)
		next = append(next, keyState{M: m, T: t})
	}
	return next
}

// TestPlaceSkipsOnlyHintsThatChangeNothing: place, which does not try the
// hints inside a piece whose ends lead to the same state, gives exactly
// the next states (and their earliest placements) of trying every
// placement, for every design the oracle steps, with and without
// penalties: random states reached by random steps, random intervals and
// hints (a millisecond and a microsecond around the designs' intervals),
// and answers drawn from the model's own decisions at random times or
// made up, unknown included.
func TestPlaceSkipsOnlyHintsThatChangeNothing(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		m := rapid.SampledFrom(canonModels).Draw(rt, "model")
		o := StepOracle{Model: m, ResetSlack: 1}
		ms, us := int64(time.Millisecond), int64(time.Microsecond)
		now := int64(1_800_000_000) * int64(time.Second)
		var st model.State
		times := []int64{now}
		for range rapid.IntRange(0, 8).Draw(rt, "steps") {
			now += rapid.Int64Range(0, 1500).Draw(rt, "gap") * ms
			st, _ = m.Step(st, spendOne, time.Unix(0, now))
			times = append(times, now)
		}
		near := func(label string) int64 {
			return rapid.SampledFrom(times).Draw(rt, label+" step") +
				rapid.Int64Range(0, 8).Draw(rt, label+" halves")*500*ms +
				rapid.Int64Range(-3, 3).Draw(rt, label+" ms")*ms +
				rapid.Int64Range(-1, 1).Draw(rt, label+" µs")*us
		}
		from := near("from")
		to := from + rapid.Int64Range(0, 1500).Draw(rt, "length")*ms/rapid.Int64Range(1, 100).Draw(rt, "divisor")
		var hints []int64
		for range rapid.IntRange(0, 12).Draw(rt, "hints") {
			hints = append(hints, near("hint"))
		}
		slices.Sort(hints)
		hints = slices.Compact(hints)
		s := keyState{M: st, T: rapid.SampledFrom([]int64{0, from - ms, from + rapid.Int64Range(0, to-from).Draw(rt, "T")}).Draw(rt, "placed")}
		out := opOutput{Unknown: true}
		if !rapid.Bool().Draw(rt, "unknown") {
			_, d := m.Step(st, spendOne, time.Unix(0, from+rapid.Int64Range(0, to-from).Draw(rt, "decided")))
			out = opOutput{Status: http.StatusOK, HasHeaders: rapid.Bool().Draw(rt, "headers"), Rem: d.Remaining, Reset: d.Reset,
				Penalties: d.PenaltyUntil != 0, PenaltyUntil: d.PenaltyUntil}
			if !d.Allowed {
				out.Status = http.StatusTooManyRequests
			}
			if rapid.Bool().Draw(rt, "made up") {
				out.Rem = rapid.IntRange(0, 3).Draw(rt, "rem")
			}
		}
		in := opInput{From: from, To: to, Hints: hints}
		got, want := o.place(s, in, out), placeEverywhere(o, s, in, out)
		if !slices.Equal(got, want) {
			rt.Fatalf("%T from %+v on [%d, %d], hints %v, answer %+v:\n got  %+v\n want %+v", m, s, from, to, hints, out, got, want)
		}
	})
}

// TestPlacementHintsAreTheSortedShifts: the merged hints are every
// interval end, a window earlier and later, and each a millisecond on,
// ascending, once each.
func TestPlacementHintsAreTheSortedShifts(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		h := &History{Window: time.Duration(rapid.Int64Range(0, 3000).Draw(rt, "window ms")) * time.Millisecond,
			Tolerance: time.Duration(rapid.Int64Range(0, 3).Draw(rt, "tolerance ms")) * time.Millisecond}
		var rs []rec
		for range rapid.IntRange(0, 6).Draw(rt, "requests") {
			from := rapid.Int64Range(0, 5000).Draw(rt, "from ms") * int64(time.Millisecond)
			rs = append(rs, rec{from: from, to: from + rapid.Int64Range(0, 5).Draw(rt, "length ms")*int64(time.Millisecond)})
		}
		tol, w, ms := int64(h.Tolerance), int64(h.Window), int64(time.Millisecond)
		var want []int64
		for _, r := range rs {
			for _, end := range []int64{r.from - tol, r.to + tol} {
				for _, shift := range []int64{-w, 0, w} {
					want = append(want, end+shift, end+shift+ms)
				}
			}
		}
		slices.Sort(want)
		want = slices.Compact(want)
		if got := placementHints(h, rs); !slices.Equal(got, want) {
			rt.Fatalf("got %v, want %v", got, want)
		}
	})
}
