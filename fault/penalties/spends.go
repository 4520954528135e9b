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
		Detectors:   fault.Detectors{Scenarios: []string{"PN-4-01", "PN-4-03"}},
		Profile:     profile.SlidingLog,
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
