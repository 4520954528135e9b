package penalties

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// RefusedCounted is the fault PNRefusedCounted (its Name says what it breaks).
func RefusedCounted() fault.Fault {
	return fault.Fault{
		Name:        PNRefusedCounted,
		Breaks:      clause.Of(clause.PN4, clause.PN1),
		Description: "requests refused under a penalty count as violations and restart the penalty",
		Seed:        "spec/003 `applyPenalty()` called on every 429, the penalty's own included: refusals count and restart the penalty",
		Detectors:   fault.Detectors{Scenarios: []string{"PN-4-01"}},
		Profile:     profile.SlidingLog,
		Wrap: wrapRefusals(func(p model.Penalties, st model.State, _ model.Request, now time.Time, _ model.State, d model.Decision) (model.State, model.Decision) {
			return p.Violate(st, d, now)
		}),
	}
}
