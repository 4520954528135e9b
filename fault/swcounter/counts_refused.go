package swcounter

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// CountsRefused is the fault SWCCountsRefused (its Name says what it breaks).
func CountsRefused() fault.Fault {
	return fault.Fault{
		Name:        SWCCountsRefused,
		Breaks:      clause.Of(clause.SWC3),
		Description: "refused requests are counted although counts-refused is not claimed: retries weigh on the next window",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-3-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap: fault.Replace(func(cfg fakeserver.Config) model.Model {
			return model.WindowCounter{Limit: cfg.Limit, Window: cfg.Window, CountsRefused: true}
		}),
	}
}
