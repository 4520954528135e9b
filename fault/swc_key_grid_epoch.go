package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// SWCKeyGridEpoch claims the key's grid (WINDOW_ALIGN=key-grid, as
// Fiber's sliding window keeps it) but keeps its windows on the epoch's:
// a key whose first request is half a window off the epoch's grid is told
// a Reset the epoch's boundary, not its own window's end (SWC-6).
const SWCKeyGridEpoch Name = "swc-key-grid-epoch"

func swcKeyGridEpoch() Fault {
	return Fault{
		Name:        SWCKeyGridEpoch,
		Breaks:      clause.Of(clause.SWC6, clause.SWC1),
		Description: "key-grid windows claimed, but the counter's windows lie on the epoch's grid",
		Detectors:   Detectors{Scenarios: []string{"SWC-6-01"}},
		Profile:     profile.SlidingWindowCounter,
		Align:       profile.AlignKeyGrid,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(model.Model) model.Model { return model.WindowCounter{Limit: cfg.Limit, Window: cfg.Window} }}
		},
	}
}
