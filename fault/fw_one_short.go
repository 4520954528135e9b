package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// FWOneShort refuses the N-th request of a window (a count compared with
// >= N − 1, or a counter that starts at 1) while announcing Limit = N:
// over-blocking that an "at most N" check alone never sees, as it holds on
// a run that allowed too little. The checks of exactly N catch it: the next
// window's N fresh allowances (FW-3-01) and N + k concurrent requests on a
// fresh key (FW-4-01).
const FWOneShort Name = "fw-one-short"

func fwOneShort() Fault {
	return Fault{
		Name:        FWOneShort,
		Breaks:      clause.Of(clause.FW3, clause.FW4),
		Description: "N − 1 requests allowed per window while Limit says N: every window refuses one too early",
		Detectors:   Detectors{Scenarios: []string{"FW-3-01", "FW-4-01"}},
		Profile:     profile.FixedWindow,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return wrapModel(func(_ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				next, d := model.Epoch{Limit: max(cfg.Limit-1, 1), Window: cfg.Window}.Step(st, req, now)
				d.Limit = cfg.Limit
				return next, d
			})
		},
	}
}
