package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
)

// PNNoEscalation never goes past the first tier: every violation from the
// first tier's count on gets its duration (a tier lookup that stops at the
// first match instead of taking the largest).
const PNNoEscalation Name = "pn-no-escalation"

func pnNoEscalation() Fault {
	return Fault{
		Name:        PNNoEscalation,
		Breaks:      clause.Of(clause.PN3),
		Description: "penalties never escalate past the first tier",
		Detectors:   Detectors{Scenarios: []string{"PN-3-01"}},
		Profile:     profile.SlidingLog,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return wrapPenalties(func(p model.Penalties, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				p.Tiers = p.Tiers[:1]
				return p.Step(st, req, now)
			})
		},
	}
}
