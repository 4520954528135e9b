package prd

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
)

// OffByOne is the fault OffByOneName (its Name says what it breaks).
func OffByOne() fault.Fault {
	return fault.Fault{
		Name:        OffByOneName,
		Breaks:      clause.Of(clause.AC1, clause.AC2),
		Description: "X-RateLimit-Remaining is one too high (the value before the spend)",
		Detectors:   fault.Detectors{Scenarios: []string{"AC1-01", "AC2-01"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(m model.Model) model.Model {
				return fault.StepFunc(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
					next, d := m.Step(st, req, now)
					if d.Allowed && d.Write && req.Cost > 0 {
						d.Remaining += req.Cost
					}
					return next, d
				})
			}}
		},
	}
}
