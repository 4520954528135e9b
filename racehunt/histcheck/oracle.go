package histcheck

import (
	"fmt"
	"hash/maphash"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/model"
)

// keyState is StepOracle's state of one key: the model's state and the
// latest decision time placed so far. Decision times never go back along a
// linearization: the reference, and any limiter that reads its clock inside
// its serialised update, decides in clock order (a design's State, e.g. a
// sliding log, assumes it).
type keyState struct {
	M model.State
	T int64 // unix nanoseconds; 0: nothing placed yet
}

// StepOracle is the sequential specification of one key under any
// model.Model: a request is the model's Step (Cost 1) at a decision time
// anywhere in its [From − tol, To + tol], no earlier than the decisions
// linearized before it. The response must match the Decision: 200 when
// allowed, 429 when refused, and with headers Remaining exactly and Reset
// within ResetSlack seconds. A request without a response may or may not
// have taken effect, with any decision. Under penalties a 429's penalty
// marker must match the model's too (penaltyMatches).
//
// A window boundary may fall inside a request's interval: the interval is
// cut into the pieces on which the model's decision is constant (Placements)
// and the earliest and the latest time of each piece are tried, so a
// decision that fits either side of the boundary is accepted. Where the
// next state depends on the exact time (a sliding log records it), the
// times that matter to the key's other requests are tried too (the hints:
// their interval ends, a window before and after them, and a millisecond
// past each), so that a request can be placed just before another or an
// entry can leave just before, or just after, another request.
type StepOracle struct {
	Model model.Model
	Tol   time.Duration
	// ResetSlack is how far Reset may lie from the model's, in seconds
	// (profiles.md: ±1 s).
	ResetSlack int64
}

var spendOne = model.Request{Cost: 1}

// stepMemo remembers StepOracle's answers: porcupine's search asks for the
// same request from the same state again and again as it backtracks, and
// each answer cuts the request's interval into pieces with the model.
type stepMemo struct {
	o  StepOracle
	mu sync.Mutex
	m  map[memoKey][]any
}

type memoKey struct {
	s     keyState
	index int // the op: its input and output never change
}

func (c *stepMemo) step(state, input, output any) []any {
	s, in := state.(keyState), input.(opInput)
	if out := output.(opOutput); out.Unknown {
		// The op may never have taken effect: s itself goes on, as it is.
		return append([]any{s}, c.placed(s, in, out)...)
	}
	return c.placed(s, in, output.(opOutput))
}

// placed is StepOracle's next states where op in takes effect, from s
// canonical at the op's earliest decision time (no later op is placed
// before it): the states of many placements then meet in one memo entry.
func (c *stepMemo) placed(s keyState, in opInput, out opOutput) []any {
	lo := max(in.From-int64(c.o.Tol), s.T)
	s = keyState{M: canonical(c.o.Model, s.M, lo), T: lo}
	k := memoKey{s, in.Index}
	c.mu.Lock()
	next, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return next
	}
	next = c.o.place(s, in, out)
	c.mu.Lock()
	c.m[k] = next
	c.mu.Unlock()
	return next
}

// place is the next states where op in takes effect on s: at each of its
// placements from s.T on whose decision matches out, the model's next state
// canonical at the placement (later ops are placed no earlier).
func (o StepOracle) place(s keyState, in opInput, out opOutput) []any {
	var next []any
	lo, hi := max(in.From-int64(o.Tol), s.T), in.To+int64(o.Tol)
	if lo > hi {
		return next
	}
	// Placements ascend: for each next state the earliest placement is kept
	// (a smaller lower bound admits every later history a larger one does).
	// The states are few (one per placement at most): a scan finds repeats.
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

func (o StepOracle) matches(d model.Decision, out opOutput) bool {
	switch out.Status {
	case http.StatusOK:
		if !d.Allowed {
			return false
		}
	case http.StatusTooManyRequests:
		if d.Allowed {
			return false
		}
	default:
		return false
	}
	if out.Penalties && out.Status == http.StatusTooManyRequests && !penaltyMatches(d, out.PenaltyUntil, o.ResetSlack) {
		return false
	}
	if !out.HasHeaders {
		return true
	}
	return out.Rem == d.Remaining && out.Reset >= d.Reset-o.ResetSlack && out.Reset <= d.Reset+o.ResetSlack
}

// Placements are the decision times in [lo, hi] (unix nanoseconds,
// ascending) worth trying for a request on st: the first and the last time
// of every piece of the interval on which the model's Decision is constant,
// the hints (ascending) that fall inside, and the end of the key's
// penalty (penaltyEnd).
// The interval is first cut at whole seconds (designs that read the clock
// in seconds change only there); within a second a piece's ends are found
// by bisection, assuming each part of the Decision is monotone in time
// there (quota only comes back, Reset only moves forward, Retry-After only
// shrinks), so equal decisions at both ends mean one piece.
func (o StepOracle) Placements(st model.State, lo, hi int64, hints ...int64) []int64 {
	if lo >= hi {
		return []int64{lo}
	}
	type point struct {
		t int64
		d shown
	}
	var pts []point
	at := func(t int64) point {
		_, d := o.Model.Step(st, spendOne, time.Unix(0, t))
		return point{t, shownOf(d)}
	}
	var split func(a, b point)
	split = func(a, b point) {
		if a.d == b.d || b.t-a.t <= 1 {
			pts = append(pts, a, b)
			return
		}
		m := at(a.t + (b.t-a.t)/2)
		split(a, m)
		split(m, b)
	}
	for a := lo; a <= hi; {
		b := min(hi, (floorSecond(a)+1)*int64(time.Second)-1)
		split(at(a), at(b))
		a = b + 1
	}
	// Keep the ends of each run of equal decisions, and the hints.
	var out []int64
	for i, p := range pts {
		first := i == 0 || pts[i-1].d != p.d
		last := i == len(pts)-1 || pts[i+1].d != p.d
		if first || last {
			out = append(out, p.t)
		}
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

// placementHints are the times StepOracle tries for a key's requests rs
// beside the pieces' ends, ascending: each request's interval ends
// (± Tolerance), the same a window earlier and later, and each of those a
// millisecond on (the designs' finest clock: a sliding log's entry at t − W
// has left at t, one at t − W + 1 ms has not).
func placementHints(h *History, rs []rec) []int64 {
	tol, w, ms := int64(h.Tolerance), int64(h.Window), int64(time.Millisecond)
	out := make([]int64, 0, 12*len(rs))
	for i := range rs {
		for _, end := range []int64{rs[i].from - tol, rs[i].to + tol} {
			for _, shift := range []int64{-w, 0, w} {
				out = append(out, end+shift, end+shift+ms)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// floorSecond is the unix second holding ns.
func floorSecond(ns int64) int64 {
	s := ns / int64(time.Second)
	if ns < 0 && ns%int64(time.Second) != 0 {
		s--
	}
	return s
}

// stepModel is the porcupine model of a history of a profile other than
// the PRD: StepOracle per key (operations partitioned by key).
func stepModel(h *History) porcupine.Model {
	memo := &stepMemo{o: StepOracle{Model: h.Model, Tol: h.Tolerance, ResetSlack: 1}, m: map[memoKey][]any{}}
	return setModel(keyState{}, memo.step, func(st keyState) string {
		if !st.M.Found && st.M.Penalty == (model.Penalty{}) {
			return "no state"
		}
		s := fmt.Sprintf("rem=%d reset=%d", st.M.Remaining, st.M.Reset)
		if st.M.Log != "" {
			s += fmt.Sprintf(" log=%d", len(model.DecodeLog(st.M.Log)))
		}
		if p := st.M.Penalty; p.Count > 0 {
			s += fmt.Sprintf(" violations=%d", p.Count)
			if p.Until > 0 {
				s += " penalty until " + time.UnixMilli(p.Until).UTC().Format("15:04:05.000")
			}
		}
		return s + " at " + time.Unix(0, st.T).UTC().Format("15:04:05.000")
	}, &stateOrder[keyState]{
		// Of two states alike but for T, the earlier admits every later
		// placement the other does.
		hash:     func(st keyState) uint64 { return maphash.Comparable(stateSeed, st.M) },
		subsumes: func(a, b keyState) bool { return a.M == b.M && a.T <= b.T },
	})
}
