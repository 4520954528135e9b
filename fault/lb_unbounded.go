package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// LBUnbounded queues without bound: a request that finds B requests
// waiting is queued too, never refused, so B + 1 + k concurrent requests
// on an idle key are all allowed (LB-2). Limit still says B + 1. Its
// scenario is still to be written: nothing detects it yet but
// TestFaultsBreakTheirClause.
const LBUnbounded Name = "lb-unbounded"

func lbUnbounded() Fault {
	return Fault{
		Name:        LBUnbounded,
		Breaks:      clause.Of(clause.LB2),
		Detectors:   Detectors{Scenarios: []string{"LB-2-01"}},
		Description: "a queue without bound: nothing is ever refused, the excess waits however long",
		Profile:     profile.LeakyBucket,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return wrapModel(func(_ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				next, d := model.LeakyBucket{Burst: 1 << 20, Rate: cfg.Rate, Delay: cfg.QueueDelay, NoDelay: cfg.NoDelay}.Step(st, req, now)
				d.Limit, d.Remaining = cfg.Burst+1, min(d.Remaining, cfg.Burst)
				return next, d
			})
		},
	}
}
