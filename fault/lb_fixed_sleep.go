package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// LBFixedSleep sleeps a fixed time instead of spacing the queue: every
// request that finds others queued is held one interval (1/R), whatever
// its place, so a burst leaves as a burst one interval later — faster than
// R (LB-1) — and the queue's state still fills as if spaced.
const LBFixedSleep Name = "lb-fixed-sleep"

func lbFixedSleep() Fault {
	return Fault{
		Name:        LBFixedSleep,
		Breaks:      clause.Of(clause.LB1),
		Detectors:   Detectors{Scenarios: []string{"LB-1-01"}},
		Description: "a fixed sleep of 1/R for every queued request instead of its turn: a burst leaves as a burst",
		Profile:     profile.LeakyBucket,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return wrapModel(func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				next, d := m.Step(st, req, now)
				if d.Wait > 0 {
					d.Wait = time.Duration(float64(time.Second) / cfg.Rate)
				}
				return next, d
			})
		},
	}
}
