package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// LBNoDelayIgnored delays queued requests their turn although
// LB_MODE=nodelay is claimed (a limit_req without its nodelay): a burst's
// queued requests wait i/R instead of being answered at once (LB-3 under
// nodelay, where D = B).
const LBNoDelayIgnored Name = "lb-nodelay-ignored"

// LBDelayIgnored answers queued requests at once (nodelay, places still
// freed at R) although LB_MODE=delay is claimed: a burst leaves as a
// burst (LB-1 with D = 0).
const LBDelayIgnored Name = "lb-delay-ignored"

func lbNoDelayIgnored() Fault {
	return Fault{
		Name:        LBNoDelayIgnored,
		Breaks:      clause.Of(clause.LB3),
		Detectors:   Detectors{Scenarios: []string{"LB-3-01"}},
		Description: "LB_MODE=nodelay claimed, queued requests still delayed their turn",
		Profile:     profile.LeakyBucket,
		NoDelay:     true,
		Wrap:        modeFlipped,
	}
}

func lbDelayIgnored() Fault {
	return Fault{
		Name:        LBDelayIgnored,
		Breaks:      clause.Of(clause.LB1),
		Detectors:   Detectors{Scenarios: []string{"LB-1-01"}},
		Description: "LB_MODE=delay claimed, queued requests answered at once (nodelay)",
		Profile:     profile.LeakyBucket,
		Wrap:        modeFlipped,
	}
}

// modeFlipped serves the leaky bucket in the mode cfg does not say.
func modeFlipped(cfg fakeserver.Config) fakeserver.Wrap {
	flipped := model.LeakyBucket{Burst: cfg.Burst, Rate: cfg.Rate, NoDelay: !cfg.NoDelay}
	return wrapModel(func(_ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
		return flipped.Step(st, req, now)
	})
}
