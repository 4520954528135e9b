package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
)

// ReplaySpends spends a unit on every look, so identical replays spend.
const ReplaySpends Name = "replay-spends"

func replaySpends() Fault {
	return Fault{
		Name:        ReplaySpends,
		Breaks:      clause.Of(clause.AC6, clause.FR6),
		Description: "an identical replay returns the cached response but spends a unit",
		Detectors:   Detectors{Scenarios: []string{"AC6-01", "AC6-02"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(m model.Model) model.Model {
				return stepFunc(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
					req.Cost = max(req.Cost, 1)
					return m.Step(st, req, now)
				})
			}}
		},
	}
}
