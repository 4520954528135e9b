package histcheck

import (
	"fmt"
	"hash/maphash"
	"net/http"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
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
	// RemainingSlack is how far Remaining may lie from the model's: the
	// design's profile.RemainingSlack.
	RemainingSlack int
}

var spendOne = model.Request{Cost: 1}

// stepMemo remembers StepOracle's answers: porcupine's search asks for the
// same request from the same state again and again as it backtracks, and
// each answer cuts the request's interval into pieces with the model. Its
// entries are filed by the op and the state's hash, so that the map moves
// a few words, not whole states, as it grows.
type stepMemo struct {
	o  StepOracle
	mu sync.Mutex
	m  map[memoKey][]memoEntry
}

type memoKey struct {
	h     uint64 // the state's hash
	index int    // the op: its input and output never change
}

type memoEntry struct {
	s    keyState
	next []keyState
}

func newStepMemo(o StepOracle) *stepMemo {
	return &stepMemo{o: o, m: map[memoKey][]memoEntry{}}
}

func (c *stepMemo) step(s keyState, input, output any) []keyState {
	in := input.(opInput)
	if out := output.(opOutput); out.Unknown {
		// The op may never have taken effect: s itself goes on, as it is.
		return append([]keyState{s}, c.placed(s, in, out)...)
	}
	return c.placed(s, in, output.(opOutput))
}

// placed is StepOracle's next states where op in takes effect, from s
// canonical at the op's earliest decision time (no later op is placed
// before it): the states of many placements then meet in one memo entry.
func (c *stepMemo) placed(s keyState, in opInput, out opOutput) []keyState {
	lo := max(in.From-int64(c.o.Tol), s.T)
	s = keyState{M: canonical(c.o.Model, s.M, lo), T: lo}
	k := memoKey{maphash.Comparable(stateSeed, s), in.Index}
	c.mu.Lock()
	for _, e := range c.m[k] {
		if e.s == s {
			c.mu.Unlock()
			return e.next
		}
	}
	c.mu.Unlock()
	next := c.o.place(s, in, out)
	c.mu.Lock()
	c.m[k] = append(c.m[k], memoEntry{s, next})
	c.mu.Unlock()
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
	return out.Rem >= d.Remaining-o.RemainingSlack && out.Rem <= d.Remaining+o.RemainingSlack &&
		out.Reset >= d.Reset-o.ResetSlack && out.Reset <= d.Reset+o.ResetSlack
}

// stepSpec is StepOracle on h's model with a memo of its own, states of
// one key alike but for T ordered by T.
func stepSpec(h *History) *setSpec[keyState] {
	memo := newStepMemo(StepOracle{Model: h.Model, Tol: h.Tolerance, ResetSlack: 1, RemainingSlack: profile.Of(h.Profile).RemainingSlack})
	return &setSpec[keyState]{step: memo.step, order: &stateOrder[keyState]{
		// Of two states alike but for T, the earlier admits every later
		// placement the other does.
		hash:     func(st keyState) uint64 { return maphash.Comparable(stateSeed, st.M) },
		subsumes: func(a, b keyState) bool { return a.M == b.M && a.T <= b.T },
	}}
}

// stepModel is the porcupine model of a history of a profile other than
// the PRD: StepOracle per key (operations partitioned by key).
func stepModel(h *History) porcupine.Model {
	return stepSpec(h).model(func(st keyState) string {
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
	})
}
