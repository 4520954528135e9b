package histcheck

import (
	"slices"
	"time"

	"github.com/rlspec/rlspec/model"
)

// point is a decision time with the model's answer there: its decision and
// next state (canon: that state canonical at t, once asked for).
type point struct {
	t     int64
	d     model.Decision
	next  model.State
	canon model.State
}

// at is the model's answer at t to a request on st, canonical.
func (o StepOracle) at(st model.State, t int64) point {
	p := o.decide(st, t)
	p.canon = canonical(o.Model, p.next, t)
	return p
}

// decide is at without the canonical next state.
func (o StepOracle) decide(st model.State, t int64) point {
	next, d := o.Model.Step(st, spendOne, time.Unix(0, t))
	return point{t: t, d: d, next: next}
}

// place is the next states where op in takes effect on s: at each of its
// placements from s.T on whose decision matches out, the model's next state
// canonical at the placement (later ops are placed no earlier).
//
// The placements are Placements', but a hint inside a piece whose two ends
// give the same decision (penalty marker included) and the same canonical
// next state is not tried: the state there is the same, and the piece's
// first end, earlier, subsumes it. That assumes, as the cut into pieces
// does, that a design's state moves one way in time: a state equal at
// both ends of a piece is equal between them (a token bucket's fill
// instant is max(full, t) plus the cost; a window's count and end change
// only at its boundary; a sliding log's new entry is t's millisecond).
func (o StepOracle) place(s keyState, in opInput, out opOutput) []keyState {
	var next []keyState
	lo, hi := max(in.From-int64(o.Tol), s.T), in.To+int64(o.Tol)
	if lo > hi {
		return next
	}
	ends := o.pieces(s.M, lo, hi)
	extra := penaltyEnd(o.Model, s.M, lo, hi)
	// Placements ascend: for each next state the earliest placement is kept
	// (a smaller lower bound admits every later history a larger one does).
	// The states are few (one per placement at most): a scan finds repeats.
	var seen []model.State
	try := func(p *point) {
		if !out.Unknown && !o.matches(p.d, out) || slices.Contains(seen, p.canon) {
			return
		}
		seen = append(seen, p.canon)
		next = append(next, keyState{M: p.canon, T: p.t})
	}
	hints := in.Hints
	h, _ := slices.BinarySearch(hints, lo+1)
	var between []int64
	for i := range ends {
		try(&ends[i])
		if i+1 == len(ends) {
			break
		}
		// The hints and the penalty's end between this end and the next,
		// ascending.
		a, b := &ends[i], &ends[i+1]
		same := shownOf(a.d) == shownOf(b.d) && a.d.PenaltyUntil == b.d.PenaltyUntil && a.canon == b.canon
		between = between[:0]
		for ; h < len(hints) && hints[h] < b.t; h++ {
			if hints[h] > a.t && !same {
				between = append(between, hints[h])
			}
		}
		for _, t := range extra {
			if t > a.t && t < b.t {
				between = append(between, t)
			}
		}
		if len(extra) > 0 {
			slices.Sort(between)
		}
		for _, t := range between {
			p := o.at(s.M, t)
			try(&p)
		}
	}
	return next
}

// Placements are the decision times in [lo, hi] (unix nanoseconds,
// ascending) worth trying for a request on st: the first and the last time
// of every piece of the interval on which the model's Decision is constant
// (pieces), the hints (ascending) that fall inside, and the end of the
// key's penalty (penaltyEnd).
func (o StepOracle) Placements(st model.State, lo, hi int64, hints ...int64) []int64 {
	var out []int64
	for _, p := range o.pieces(st, lo, hi) {
		out = append(out, p.t)
	}
	out = append(out, penaltyEnd(o.Model, st, lo, hi)...)
	// hints ascend: those inside (lo, hi) are one run.
	i, _ := slices.BinarySearch(hints, lo+1)
	for ; i < len(hints) && hints[i] < hi; i++ {
		out = append(out, hints[i])
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// pieces are the first and the last point of every piece of [lo, hi] on
// which the model's Decision for a request on st is constant, ascending
// (lo alone when lo >= hi), canonical.
// The interval is first cut at whole seconds (designs that read the clock
// in seconds change only there); within a second a piece's ends are found
// by bisection, assuming each part of the Decision is monotone in time
// there (quota only comes back, Reset only moves forward, Retry-After only
// shrinks), so equal decisions at both ends mean one piece.
func (o StepOracle) pieces(st model.State, lo, hi int64) []point {
	if lo >= hi {
		return []point{o.at(st, lo)}
	}
	var pts []point
	var split func(a, b point)
	split = func(a, b point) {
		if shownOf(a.d) == shownOf(b.d) || b.t-a.t <= 1 {
			pts = append(pts, a, b)
			return
		}
		m := o.decide(st, a.t+(b.t-a.t)/2)
		split(a, m)
		split(m, b)
	}
	for a := lo; a <= hi; {
		b := min(hi, (floorSecond(a)+1)*int64(time.Second)-1)
		split(o.decide(st, a), o.decide(st, b))
		a = b + 1
	}
	// Keep the ends of each run of equal decisions, once each.
	out := pts[:0]
	for i, p := range pts {
		first := i == 0 || shownOf(pts[i-1].d) != shownOf(p.d)
		last := i == len(pts)-1 || shownOf(pts[i+1].d) != shownOf(p.d)
		if (first || last) && (len(out) == 0 || out[len(out)-1].t != p.t) {
			out = append(out, p)
		}
	}
	for i := range out {
		out[i].canon = canonical(o.Model, out[i].next, out[i].t)
	}
	return out
}

// placementHints are the times StepOracle tries for a key's requests rs
// beside the pieces' ends, ascending: each request's interval ends
// (± Tolerance), the same a window earlier and later, and each of those a
// millisecond on (the designs' finest clock: a sliding log's entry at t − W
// has left at t, one at t − W + 1 ms has not).
func placementHints(h *History, rs []rec) []int64 {
	tol, w, ms := int64(h.Tolerance), int64(h.Window), int64(time.Millisecond)
	ends := make([]int64, 0, 2*len(rs))
	for i := range rs {
		ends = append(ends, rs[i].from-tol, rs[i].to+tol)
	}
	slices.Sort(ends)
	ends = slices.Compact(ends)
	// ends shifted by each of the six offsets stay ascending: merge them.
	shifts := [...]int64{-w, -w + ms, 0, ms, w, w + ms}
	var at [len(shifts)]int
	out := make([]int64, 0, len(shifts)*len(ends))
	for {
		k := -1
		for j, sh := range shifts {
			if at[j] < len(ends) && (k < 0 || ends[at[j]]+sh < ends[at[k]]+shifts[k]) {
				k = j
			}
		}
		if k < 0 {
			return out
		}
		if t := ends[at[k]] + shifts[k]; len(out) == 0 || out[len(out)-1] != t {
			out = append(out, t)
		}
		at[k]++
	}
}

// floorSecond is the unix second holding ns.
func floorSecond(ns int64) int64 {
	s := ns / int64(time.Second)
	if ns < 0 && ns%int64(time.Second) != 0 {
		s--
	}
	return s
}
