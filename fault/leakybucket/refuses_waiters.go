package leakybucket

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// RefusesWaiters is the fault LBRefusesWaiters (its Name says what it breaks).
func RefusesWaiters() fault.Fault {
	return fault.Fault{
		Name:        LBRefusesWaiters,
		Breaks:      clause.Of(clause.LB2),
		Detectors:   fault.Detectors{Scenarios: []string{"LB-2-01"}},
		Description: "requests that should wait their turn are refused: a queue of no places behind the one in service",
		Profile:     profile.LeakyBucket,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, _ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := model.LeakyBucket{Rate: cfg.Rate}.Step(st, req, now)
			d.Limit = cfg.Burst + 1
			return next, d
		}),
	}
}
