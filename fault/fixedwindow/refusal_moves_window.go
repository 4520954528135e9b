package fixedwindow

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// RefusalMovesWindow is the fault FWRefusalMovesWindow (its Name says what it breaks).
func RefusalMovesWindow() fault.Fault {
	return fault.Fault{
		Name:        FWRefusalMovesWindow,
		Breaks:      clause.Of(clause.FW3),
		Description: "a refusal moves the window's end to now + W: a client retrying while refused never gets its next window",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-3-03"}},
		Profile:     profile.FixedWindow,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			t := now.Unix()
			if req.Cost == 0 || !st.Found || st.Reset <= t || st.Remaining >= req.Cost {
				return m.Step(st, req, now)
			}
			w := int64(cfg.Window / time.Second)
			st.Reset = t + w
			return st, model.Decision{Limit: cfg.Limit, Reset: st.Reset, RetryAfter: w, Write: true}
		}),
	}
}
