package fixedwindow

import (
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
		Wrap: fault.Replace(func(cfg fakeserver.Config) model.Model {
			return fault.Claiming(model.Epoch{Limit: max(cfg.Limit-1, 1), Window: cfg.Window}, cfg.Limit)
		}),
	}
}
