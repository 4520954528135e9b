package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// FWGridFirstRequest is FWKeyGrid the other way round: windows on the
// key's grid are claimed (WINDOW_ALIGN=key-grid) but each window is opened
// by the first request after the previous one ended. After an idle gap
// that is not a multiple of W the window starts at the request, so the
// grid's next window brings no fresh allowances when it should (FW-3) and
// two first-request windows put up to 2N inside one grid window (FW-1).
const FWGridFirstRequest Name = "fw-grid-first-request"

func fwGridFirstRequest() Fault {
	return Fault{
		Name:        FWGridFirstRequest,
		Breaks:      clause.Of(clause.FW3, clause.FW1),
		Description: "key-grid windows claimed, but each window is opened by the first request after an idle gap",
		Detectors:   Detectors{Scenarios: []string{"FW-3-04"}},
		Profile:     profile.FixedWindow,
		Align:       profile.AlignKeyGrid,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(model.Model) model.Model { return model.PRD{Limit: cfg.Limit, Window: cfg.Window} }}
		},
	}
}
