package histcheck

import (
	"time"

	"github.com/rlspec/rlspec/model"
)

// canonical is st as it decides every request at or after at (unix
// nanoseconds) under m: the parts that no longer matter then dropped, so
// that states reached by placements a few microseconds apart, which decide
// the future alike, compare equal and porcupine's state sets stay small. A
// token bucket full by at, a leaky bucket's queue drained by at, a window
// counter's windows both over and a sliding log whose entries have all
// left are the key never seen; a sliding log keeps only its live entries;
// the fields a design recomputes at each Step (Remaining and Reset of the
// bucket and log designs) are zeroed. Other designs' states are already a
// few integers and are kept as they are. Under penalties the violation
// record is kept beside the design's canonical part (canonicalPenalized).
// Each design says its own canonical state (canonicalizer).
func canonical(m model.Model, st model.State, at int64) model.State {
	if p, ok := m.(model.Penalties); ok {
		return canonicalPenalized(p, st, at)
	}
	if !st.Found {
		return model.State{}
	}
	if c, ok := m.(canonicalizer); ok {
		return c.Canonical(st, time.Unix(0, at))
	}
	return st
}

// canonicalizer is a design that drops what no longer matters from a
// state: model's bucket, log and counter designs.
type canonicalizer interface {
	Canonical(st model.State, at time.Time) model.State
}

// shown is the part of a Decision that StepOracle compares with a
// response: Placements cut a request's interval where it changes (a leaky
// bucket's Wait changes every microsecond and says nothing to the oracle).
type shown struct {
	allowed   bool
	remaining int
	reset     int64
}

func shownOf(d model.Decision) shown {
	return shown{d.Allowed, d.Remaining, d.Reset}
}
