package leakybucket

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// NoDelayIgnored is the fault LBNoDelayIgnored (its Name says what it breaks).
func NoDelayIgnored() fault.Fault {
	return fault.Fault{
		Name:        LBNoDelayIgnored,
		Breaks:      clause.Of(clause.LB3),
		Detectors:   fault.Detectors{Scenarios: []string{"LB-3-01"}},
		Description: "LB_MODE=nodelay claimed, queued requests still delayed their turn",
		Profile:     profile.LeakyBucket,
		NoDelay:     true,
		Wrap:        modeFlipped,
	}
}

// DelayIgnored is the fault LBDelayIgnored (its Name says what it breaks).
func DelayIgnored() fault.Fault {
	return fault.Fault{
		Name:        LBDelayIgnored,
		Breaks:      clause.Of(clause.LB1),
		Detectors:   fault.Detectors{Scenarios: []string{"LB-1-01"}},
		Description: "LB_MODE=delay claimed, queued requests answered at once (nodelay)",
		Profile:     profile.LeakyBucket,
		Wrap:        modeFlipped,
	}
}

// modeFlipped serves the leaky bucket in the mode cfg does not say.
func modeFlipped(cfg fakeserver.Config) fakeserver.Wrap {
	flipped := model.LeakyBucket{Burst: cfg.Burst, Rate: cfg.Rate, NoDelay: !cfg.NoDelay}
	return fault.WrapModel(func(_ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
		return flipped.Step(st, req, now)
	})
}
