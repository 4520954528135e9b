package fixedwindow

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// KeyGrid is the fault FWKeyGrid (its Name says what it breaks).
func KeyGrid() fault.Fault {
	return fault.Fault{
		Name:        FWKeyGrid,
		Breaks:      clause.Of(clause.FW2, clause.FW1),
		Description: "first-request windows claimed, but windows sit on a grid of W anchored at the key's first-ever request",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-2-02"}},
		Profile:     profile.FixedWindow,
		Align:       profile.AlignFirstRequest,
		Wrap:        fault.Replace(func(cfg fakeserver.Config) model.Model { return model.KeyGrid{Limit: cfg.Limit, Window: cfg.Window} }),
	}
}
