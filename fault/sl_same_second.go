package fault

import (
	"slices"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
)

// SLSameSecond is spec/002's storage: rate_limit_entries has
// UNIQUE(key, timestamp) and record() runs INSERT OR REPLACE with
// Math.floor(Date.now() / 1000), so requests of one key in the same second
// are one entry.
const SLSameSecond Name = "sl-same-second-merge"

func slSameSecond() Fault {
	return Fault{
		Name:        SLSameSecond,
		Breaks:      clause.Of(clause.SL2, clause.SL1),
		Description: "spec/002: UNIQUE(key, timestamp) + INSERT OR REPLACE with whole-second timestamps: requests in the same second merge into one entry",
		Detectors:   Detectors{Scenarios: []string{"SL-1-01"}},
		Profile:     profile.SlidingLog,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return wrapModel(func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				next, d := m.Step(st, req, now.Truncate(time.Second))
				if d.Write {
					next.Log = model.EncodeLog(slices.Compact(model.DecodeLog(next.Log)))
				}
				return next, d
			})
		},
	}
}
