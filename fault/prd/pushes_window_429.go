package prd

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
)

// PushesWindow429 is the fault PushesWindow429Name (its Name says what it breaks).
func PushesWindow429() fault.Fault {
	return fault.Fault{
		Name:        PushesWindow429Name,
		Breaks:      clause.Of(clause.AC3, clause.FR3),
		Description: "a 429 moves reset_utc to now + window, so rejected clients never get back in",
		Detectors:   fault.Detectors{Scenarios: []string{"AC3-03"}},
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			window := int64(cfg.Window / time.Second)
			return fakeserver.Wrap{Model: func(m model.Model) model.Model {
				return fault.StepFunc(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
					next, d := m.Step(st, req, now)
					if d.Allowed || req.Cost == 0 {
						return next, d
					}
					next.Reset = now.Unix() + window
					d.Reset, d.RetryAfter, d.Write = next.Reset, window, next != st
					return next, d
				})
			}}
		},
	}
}
