package leakybucket

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// Unbounded is the fault LBUnbounded (its Name says what it breaks).
func Unbounded() fault.Fault {
	return fault.Fault{
		Name:        LBUnbounded,
		Breaks:      clause.Of(clause.LB2),
		Description: "a queue without bound: nothing is ever refused, the excess waits however long",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-2-01"}},
		Profile:     profile.LeakyBucket,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, _ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := model.LeakyBucket{Burst: 1 << 20, Rate: cfg.Rate, Delay: cfg.QueueDelay, NoDelay: cfg.NoDelay}.Step(st, req, now)
			d.Limit, d.Remaining = cfg.Burst+1, min(d.Remaining, cfg.Burst)
			return next, d
		}),
	}
}
