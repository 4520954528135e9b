package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
)

// PushesWindow429 moves the window's end on every refusal.
const PushesWindow429 Name = "429-pushes-window"

func pushesWindow429() Fault {
	return Fault{
		Name:        PushesWindow429,
		Breaks:      clause.Of(clause.AC3, clause.FR3),
		Description: "a 429 moves reset_utc to now + window, so rejected clients never get back in",
		Detectors:   Detectors{Scenarios: []string{"AC3-03"}},
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			window := int64(cfg.Window / time.Second)
			return fakeserver.Wrap{Model: func(m model.Model) model.Model {
				return stepFunc(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
					next, d := m.Step(st, req, now)
					if d.Allowed || req.Cost == 0 {
						return next, d
					}
					next.Reset = now.Unix() + window
					d.Reset, d.RetryAfter, d.Write = next.Reset, window, next != st
					return next, d
				})
			}}
		},
	}
}
