package penalties

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// releaseLag is how long PNReleaseLate refuses past penalty_until.
const releaseLag = 3 * time.Second

// ReleaseLate is the fault PNReleaseLate (its Name says what it breaks).
func ReleaseLate() fault.Fault {
	return fault.Fault{
		Name:        PNReleaseLate,
		Breaks:      clause.Of(clause.PN2),
		Description: "a penalty keeps refusing for 3 s after the penalty_until it announced",
		Detectors:   fault.Detectors{Scenarios: []string{"PN-2-01"}},
		Profile:     profile.SlidingLog,
		Wrap: wrapPenalties(func(p model.Penalties, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			until := st.Penalty.Until
			if req.Cost == 0 || p.Active(st, now) || until == 0 || now.UnixMilli() >= until+releaseLag.Milliseconds() {
				return p.Step(st, req, now)
			}
			late := st
			late.Penalty.Until = until + releaseLag.Milliseconds()
			_, d := p.Step(late, req, now)
			d.PenaltyUntil = (until + 999) / 1000
			return st, d
		}),
	}
}
