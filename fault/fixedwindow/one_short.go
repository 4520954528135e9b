package fixedwindow

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// OneShort is the fault FWOneShort (its Name says what it breaks).
func OneShort() fault.Fault {
	return fault.Fault{
		Name:        FWOneShort,
		Breaks:      clause.Of(clause.FW3, clause.FW4),
		Description: "N − 1 requests allowed per window while Limit says N: every window refuses one too early",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-3-01", "FW-4-01"}},
		Profile:     profile.FixedWindow,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, _ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := model.Epoch{Limit: max(cfg.Limit-1, 1), Window: cfg.Window}.Step(st, req, now)
			d.Limit = cfg.Limit
			return next, d
		}),
	}
}
