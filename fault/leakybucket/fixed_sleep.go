package leakybucket

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// FixedSleep is the fault LBFixedSleep (its Name says what it breaks).
func FixedSleep() fault.Fault {
	return fault.Fault{
		Name:        LBFixedSleep,
		Breaks:      clause.Of(clause.LB1),
		Detectors:   fault.Detectors{Scenarios: []string{"LB-1-01"}},
		Description: "a fixed sleep of 1/R for every queued request instead of its turn: a burst leaves as a burst",
		Profile:     profile.LeakyBucket,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := m.Step(st, req, now)
			if d.Wait > 0 {
				d.Wait = time.Duration(float64(time.Second) / cfg.Rate)
			}
			return next, d
		}),
	}
}
