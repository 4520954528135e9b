package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
)

// PNNeverForgets keeps counting violations however old the last one is
// (spec/003's applyPenalty without its 24 h reset): a key that violated
// once a day ago starts at a higher tier.
const PNNeverForgets Name = "pn-never-forgets"

func pnNeverForgets() Fault {
	return Fault{
		Name:        PNNeverForgets,
		Breaks:      clause.Of(clause.PN5),
		Description: "violation counts never start again after 24 h",
		Detectors:   Detectors{Scenarios: []string{"PN-5-01"}},
		Profile:     profile.SlidingLog,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return wrapPenalties(func(p model.Penalties, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				if st.Penalty.Count > 0 {
					st.Penalty.Last = max(st.Penalty.Last, now.UnixMilli()) // never older than a day
				}
				return p.Step(st, req, now)
			})
		},
	}
}
