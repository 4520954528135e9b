package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// PNRefusedCounted counts requests refused under a penalty as violations:
// each one raises the count and starts its tier's penalty afresh from now,
// as an applyPenalty called on every 429 would (spec/003 calls it only for
// the algorithm's). A client that retries under a penalty is never
// released.
const PNRefusedCounted Name = "pn-refused-counted"

func pnRefusedCounted() Fault {
	return Fault{
		Name:        PNRefusedCounted,
		Breaks:      clause.Of(clause.PN4, clause.PN1),
		Description: "requests refused under a penalty count as violations and restart the penalty",
		Seed:        "spec/003 `applyPenalty()` called on every 429, the penalty's own included: refusals count and restart the penalty",
		Detectors:   Detectors{Scenarios: []string{"PN-4-01"}},
		Profile:     profile.SlidingLog,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return wrapRefusals(func(p model.Penalties, st model.State, _ model.Request, now time.Time, _ model.State, d model.Decision) (model.State, model.Decision) {
				return p.Violate(st, d, now)
			})
		},
	}
}
