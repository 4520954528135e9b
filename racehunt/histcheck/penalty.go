package histcheck

import (
	"time"

	"github.com/rlspec/rlspec/model"
)

// Penalties (profiles.md, feature penalties): the history's Model is then
// a model.Penalties around the design. The oracle steps it as any model;
// what it adds is here: the penalty record kept through canonical states,
// the penalty marker of a 429 compared with the model's, the penalty's end
// as a placement, and the bounds read on the design alone.

// design is m without its penalties: the design the bounds describe.
func design(m model.Model) model.Model {
	if p, ok := m.(model.Penalties); ok {
		return p.Inner
	}
	return m
}

// penalized reports whether h's model carries penalties.
func (h *History) penalized() bool {
	_, ok := h.Model.(model.Penalties)
	return ok
}

// canonicalPenalized is st under penalties p canonical at at: the design's
// part canonical under the design, the violation record kept (its count
// decides later penalties for 24 h), a penalty over by at dropped.
func canonicalPenalized(p model.Penalties, st model.State, at int64) model.State {
	rec := st.Penalty
	inner := st
	inner.Penalty = model.Penalty{}
	c := canonical(p.Inner, inner, at)
	if rec.Until <= time.Unix(0, at).UnixMilli() {
		rec.Until = 0
	}
	c.Penalty = rec
	return c
}

// penaltyMatches compares a 429's penalty marker (penalty_active and
// penalty_until, 0 without) with the model's decision: a penalty where the
// model starts or keeps one, ending within slack seconds of the model's,
// and none where the model refuses by the design alone.
func penaltyMatches(d model.Decision, until, slack int64) bool {
	if d.PenaltyUntil == 0 || until == 0 {
		return d.PenaltyUntil == until
	}
	return until >= d.PenaltyUntil-slack && until <= d.PenaltyUntil+slack
}

// penaltyEnd is the decision times around the end of st's penalty (the
// last nanosecond under it, the first after), when it falls in (lo, hi]:
// a penalty may end within a second, where Placements would not cut.
func penaltyEnd(m model.Model, st model.State, lo, hi int64) []int64 {
	if _, ok := m.(model.Penalties); !ok || st.Penalty.Until == 0 {
		return nil
	}
	end := st.Penalty.Until * int64(time.Millisecond)
	if end <= lo || end > hi {
		return nil
	}
	return []int64{end - 1, end}
}
