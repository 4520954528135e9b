package slidinglog

import (
	"slices"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// SameSecond is the fault SLSameSecond (its Name says what it breaks).
func SameSecond() fault.Fault {
	return fault.Fault{
		Name:        SLSameSecond,
		Breaks:      clause.Of(clause.SL2, clause.SL1),
		Description: "spec/002: UNIQUE(key, timestamp) + INSERT OR REPLACE with whole-second timestamps: requests in the same second merge into one entry",
		Seed:        "spec/002 schema `UNIQUE(key, timestamp)`, `record()`: `INSERT OR REPLACE … Math.floor(Date.now() / 1000)`",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-1-01"}},
		Profile:     profile.SlidingLog,
		Wrap: fault.ModelFault(func(_ fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := m.Step(st, req, now.Truncate(time.Second))
			if d.Write {
				next.Log = model.EncodeLog(slices.Compact(model.DecodeLog(next.Log)))
			}
			return next, d
		}),
	}
}
