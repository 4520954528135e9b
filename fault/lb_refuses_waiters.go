package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// LBRefusesWaiters refuses the requests that should have waited: a request
// that finds the one in service busy is refused instead of queued (a queue
// of no places), so of B + 1 + k concurrent requests on an idle key only
// one is allowed (LB-2). Limit still says B + 1. Its scenario is still to
// be written: nothing detects it yet but TestFaultsBreakTheirClause.
const LBRefusesWaiters Name = "lb-refuses-waiters"

func lbRefusesWaiters() Fault {
	return Fault{
		Name:        LBRefusesWaiters,
		Breaks:      clause.Of(clause.LB2),
		Detectors:   Detectors{Scenarios: []string{"LB-2-01"}},
		Description: "requests that should wait their turn are refused: a queue of no places behind the one in service",
		Profile:     profile.LeakyBucket,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return wrapModel(func(_ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				next, d := model.LeakyBucket{Rate: cfg.Rate}.Step(st, req, now)
				d.Limit = cfg.Burst + 1
				return next, d
			})
		},
	}
}
