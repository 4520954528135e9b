package prd

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
)

// NoReset is the fault NoResetName (its Name says what it breaks).
func NoReset() fault.Fault {
	return fault.Fault{
		Name:        NoResetName,
		Breaks:      clause.Of(clause.AC4, clause.FR5),
		Description: "the window never resets: an exhausted bucket stays exhausted",
		Detectors:   fault.Detectors{Scenarios: []string{"AC4-01"}},
		Wrap: fault.ModelFault(func(_ fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			if !st.Found || st.Reset > now.Unix() {
				return m.Step(st, req, now)
			}
			// Show the model an expired window as if it were still open,
			// then put its real end back.
			held := st
			held.Reset = now.Unix() + 1
			next, d := m.Step(held, req, now)
			next.Reset, d.Reset = st.Reset, st.Reset
			d.Write = next != st
			return next, d
		}),
	}
}
