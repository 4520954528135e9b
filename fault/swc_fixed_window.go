package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// SWCFixedWindow is a sliding-window counter that forgets the previous
// window: a fixed window in disguise. Just after a window's start it allows
// N again although the previous window's N still weigh almost fully, so a
// request finds e ≥ N + 1 (SWC-2).
const SWCFixedWindow Name = "swc-fixed-window"

func swcFixedWindow() Fault {
	return Fault{
		Name:        SWCFixedWindow,
		Breaks:      clause.Of(clause.SWC2),
		Detectors:   Detectors{Scenarios: []string{"SWC-2-01"}},
		Description: "the previous window's count is forgotten: a fixed window on the same grid served as a sliding-window counter",
		Profile:     profile.SlidingWindowCounter,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(model.Model) model.Model { return model.Epoch{Limit: cfg.Limit, Window: cfg.Window} }}
		},
	}
}
