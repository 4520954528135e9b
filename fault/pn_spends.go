package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// PNSpends runs the algorithm on requests refused under a penalty and
// keeps what they spent (the penalty check placed after the algorithm's
// record): a client retrying under a penalty has used its quota by the
// time the penalty ends.
const PNSpends Name = "pn-spends"

func pnSpends() Fault {
	return Fault{
		Name:        PNSpends,
		Breaks:      clause.Of(clause.PN4),
		Description: "requests refused under a penalty spend quota",
		Detectors:   Detectors{Scenarios: []string{"PN-4-01", "PN-4-03"}},
		Profile:     profile.SlidingLog,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return wrapRefusals(func(p model.Penalties, st model.State, req model.Request, now time.Time, next model.State, d model.Decision) (model.State, model.Decision) {
				inner := st
				inner.Penalty = model.Penalty{}
				spent, id := p.Inner.Step(inner, req, now)
				if !id.Allowed {
					return next, d
				}
				spent.Penalty = st.Penalty
				d.Write = true
				return spent, d
			})
		},
	}
}
