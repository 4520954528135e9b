package leakybucket

import (
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
		Description: "LB_MODE=nodelay claimed, queued requests still delayed their turn",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-3-01"}},
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
		Description: "LB_MODE=delay claimed, queued requests answered at once (nodelay)",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-1-01"}},
		Profile:     profile.LeakyBucket,
		Wrap:        modeFlipped,
	}
}

// modeFlipped serves the leaky bucket in the mode cfg does not say.
var modeFlipped = fault.Replace(func(cfg fakeserver.Config) model.Model {
	return model.LeakyBucket{Burst: cfg.Burst, Rate: cfg.Rate, NoDelay: !cfg.NoDelay}
})
