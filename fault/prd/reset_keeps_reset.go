package prd

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
)

// ResetKeepsReset is the fault ResetKeepsResetName (its Name says what it breaks).
func ResetKeepsReset() fault.Fault {
	return fault.Fault{
		Name:        ResetKeepsResetName,
		Breaks:      clause.Of(clause.AC4, clause.FR5),
		Description: "the reset refills the quota but does not move reset_utc, so Reset stays in the past",
		Detectors:   fault.Detectors{Scenarios: []string{"AC4-01"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(m model.Model) model.Model {
				return fault.StepFunc(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
					next, d := m.Step(st, req, now)
					if st.Found && st.Reset <= now.Unix() && req.Cost > 0 && d.Allowed {
						next.Reset, d.Reset = st.Reset, st.Reset
					}
					return next, d
				})
			}}
		},
	}
}
