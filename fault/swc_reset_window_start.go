package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// SWCResetWindowStart answers Reset with the start of the current grid
// window — the instant a per-window row is keyed by — instead of its end
// (SWC-6).
const SWCResetWindowStart Name = "swc-reset-window-start"

func swcResetWindowStart() Fault {
	return Fault{
		Name:        SWCResetWindowStart,
		Breaks:      clause.Of(clause.SWC6),
		Description: "Reset is the current grid window's start (the key of its row), not its end",
		Detectors:   Detectors{Scenarios: []string{"SWC-6-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			w := int64(cfg.Window / time.Second)
			return wrapModel(func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				next, d := m.Step(st, req, now)
				d.Reset = now.Unix() / w * w
				return next, d
			})
		},
	}
}
