package prd

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
)

// ReplaySpends is the fault ReplaySpendsName (its Name says what it breaks).
func ReplaySpends() fault.Fault {
	return fault.Fault{
		Name:        ReplaySpendsName,
		Breaks:      clause.Of(clause.AC6, clause.FR6),
		Description: "an identical replay returns the cached response but spends a unit",
		Detectors:   fault.Detectors{Scenarios: []string{"AC6-01", "AC6-02"}},
		Wrap: fault.ModelFault(func(_ fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			req.Cost = max(req.Cost, 1)
			return m.Step(st, req, now)
		}),
	}
}
