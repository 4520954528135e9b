package leakybucket

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// NoDelayFrees is the fault LBNoDelayFrees (its Name says what it breaks).
func NoDelayFrees() fault.Fault {
	return fault.Fault{
		Name:        LBNoDelayFrees,
		Breaks:      clause.Of(clause.LB1, clause.LB2),
		Description: "nodelay that frees a request's place as soon as it is answered: the queue never fills",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-1-01", "LB-2-01"}},
		Profile:     profile.LeakyBucket,
		NoDelay:     true,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, _ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			// Each request finds the queue as it was: empty.
			_, d := model.LeakyBucket{Burst: cfg.Burst, Rate: cfg.Rate, NoDelay: true}.Step(model.State{}, req, now)
			d.Write = false
			return st, d
		}),
	}
}
