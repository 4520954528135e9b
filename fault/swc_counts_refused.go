package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// SWCCountsRefused counts refused requests in the window's count without
// claiming counts-refused (as some proxies do): a client that kept
// retrying while refused weighs on the next window, and a request that
// finds e ≤ N − 2 among the allowed ones is refused (SWC-3).
const SWCCountsRefused Name = "swc-counts-refused"

func swcCountsRefused() Fault {
	return Fault{
		Name:        SWCCountsRefused,
		Breaks:      clause.Of(clause.SWC3),
		Detectors:   Detectors{Scenarios: []string{"SWC-3-01"}},
		Description: "refused requests are counted although counts-refused is not claimed: retries weigh on the next window",
		Profile:     profile.SlidingWindowCounter,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(model.Model) model.Model {
				return model.WindowCounter{Limit: cfg.Limit, Window: cfg.Window, CountsRefused: true}
			}}
		},
	}
}
