package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// FWKeyGrid claims windows opened by the first request
// (WINDOW_ALIGN=first-request, spec/004) but keeps a grid of W anchored at
// the key's first-ever request: after an idle gap that is not a multiple
// of W, the next window still starts on that grid (dialects.md's
// key-grid), so 2N can be allowed within much less than W.
const FWKeyGrid Name = "fw-key-grid"

func fwKeyGrid() Fault {
	return Fault{
		Name:        FWKeyGrid,
		Breaks:      clause.Of(clause.FW2, clause.FW1),
		Description: "first-request windows claimed, but windows sit on a grid of W anchored at the key's first-ever request",
		Detectors:   Detectors{Scenarios: []string{"FW-2-02"}},
		Profile:     profile.FixedWindow,
		Align:       profile.AlignFirstRequest,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(model.Model) model.Model { return model.KeyGrid{Limit: cfg.Limit, Window: cfg.Window} }}
		},
	}
}
