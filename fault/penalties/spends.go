package penalties

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// Spends is the fault PNSpends (its Name says what it breaks).
func Spends() fault.Fault {
	return fault.Fault{
		Name:        PNSpends,
		Breaks:      clause.Of(clause.PN4),
		Description: "requests refused under a penalty spend quota",
		// PN-4-03 retries in the penalty's last second but one, when the
		// algorithm has room again (a penalty longer than W + 2 s): what
		// the refusals spent is still in the window at the release. PN-4-01
		// retries from the violation on, mostly while the algorithm is
		// full and nothing can be spent; it caught this fault in 3 of 10
		// runs idle and 0 of 20 overloaded, so it is not its detector.
		Detectors: fault.Detectors{Scenarios: []string{"PN-4-03"}},
		Profile:   profile.SlidingLog,
		Wrap: wrapRefusals(func(p model.Penalties, st model.State, req model.Request, now time.Time, next model.State, d model.Decision) (model.State, model.Decision) {
			inner := st
			inner.Penalty = model.Penalty{}
			spent, id := p.Inner.Step(inner, req, now)
			if !id.Allowed {
				return next, d
			}
			spent.Penalty = st.Penalty
			d.Write = true
			return spent, d
		}),
	}
}
