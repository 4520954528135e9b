package fixedwindow

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// GridFirstRequest is the fault FWGridFirstRequest (its Name says what it breaks).
func GridFirstRequest() fault.Fault {
	return fault.Fault{
		Name:        FWGridFirstRequest,
		Breaks:      clause.Of(clause.FW3, clause.FW1),
		Description: "key-grid windows claimed, but each window is opened by the first request after an idle gap",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-3-04"}},
		Profile:     profile.FixedWindow,
		Align:       profile.AlignKeyGrid,
		Wrap:        fault.Replace(func(cfg fakeserver.Config) model.Model { return model.PRD{Limit: cfg.Limit, Window: cfg.Window} }),
	}
}
