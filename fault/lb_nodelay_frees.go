package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// LBNoDelayFrees answers queued requests at once (LB_MODE=nodelay) but
// frees their places at once too, not at R: the queue never fills, every
// request is allowed and answers leave as fast as they come (LB-1; under
// nodelay the token-bucket bound with B + 1 and R). Served and claimed as
// nodelay, where LB-1's bound is 1 + B + R·Δt.
const LBNoDelayFrees Name = "lb-nodelay-frees"

func lbNoDelayFrees() Fault {
	return Fault{
		Name:        LBNoDelayFrees,
		Breaks:      clause.Of(clause.LB1, clause.LB2),
		Detectors:   Detectors{Scenarios: []string{"LB-1-01", "LB-2-01"}},
		Description: "nodelay that frees a request's place as soon as it is answered: the queue never fills",
		Profile:     profile.LeakyBucket,
		NoDelay:     true,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return wrapModel(func(_ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				// Each request finds the queue as it was: empty.
				_, d := model.LeakyBucket{Burst: cfg.Burst, Rate: cfg.Rate, NoDelay: true}.Step(model.State{}, req, now)
				d.Write = false
				return st, d
			})
		},
	}
}
