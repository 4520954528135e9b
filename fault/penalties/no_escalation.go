package penalties

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// NoEscalation is the fault PNNoEscalation (its Name says what it breaks).
func NoEscalation() fault.Fault {
	return fault.Fault{
		Name:        PNNoEscalation,
		Breaks:      clause.Of(clause.PN3),
		Description: "penalties never escalate past the first tier",
		Seed:        "spec/003's tier loop stopping at the first match (first tier only)",
		Detectors:   fault.Detectors{Scenarios: []string{"PN-3-01"}},
		Profile:     profile.SlidingLog,
		Wrap: wrapPenalties(func(p model.Penalties, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			p.Tiers = p.Tiers[:1]
			return p.Step(st, req, now)
		}),
	}
}
