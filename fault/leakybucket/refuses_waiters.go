package leakybucket

import (
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
		Description: "requests that should wait their turn are refused: a queue of no places behind the one in service",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-2-01"}},
		Profile:     profile.LeakyBucket,
		Wrap: fault.Replace(func(cfg fakeserver.Config) model.Model {
			return fault.Claiming(model.LeakyBucket{Rate: cfg.Rate}, cfg.Burst+1)
		}),
	}
}
