package penalties

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// NeverForgets is the fault PNNeverForgets (its Name says what it breaks).
func NeverForgets() fault.Fault {
	return fault.Fault{
		Name:        PNNeverForgets,
		Breaks:      clause.Of(clause.PN5),
		Description: "violation counts never start again after 24 h",
		Seed:        "spec/003 `applyPenalty()` without its `24*time.Hour` reset",
		Detectors:   fault.Detectors{Scenarios: []string{"PN-5-01"}},
		Profile:     profile.SlidingLog,
		Wrap: wrapPenalties(func(p model.Penalties, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			if st.Penalty.Count > 0 {
				st.Penalty.Last = max(st.Penalty.Last, now.UnixMilli()) // never older than a day
			}
			return p.Step(st, req, now)
		}),
	}
}
