package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// PNRefusedEscalates counts requests refused under a penalty as
// violations without restarting the penalty (an increment of the count on
// every 429, the penalty's end left alone): the penalty itself looks
// right, but the key's next violation after it takes a later tier than
// its count of algorithm violations gives.
const PNRefusedEscalates Name = "pn-refused-escalates"

func pnRefusedEscalates() Fault {
	return Fault{
		Name:        PNRefusedEscalates,
		Breaks:      clause.Of(clause.PN4, clause.PN3),
		Description: "requests refused under a penalty raise the violation count (the penalty's end stays): the next violation escalates too far",
		Detectors:   Detectors{Scenarios: []string{"PN-4-03"}},
		Profile:     profile.SlidingLog,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return wrapRefusals(func(_ model.Penalties, _ model.State, _ model.Request, now time.Time, next model.State, d model.Decision) (model.State, model.Decision) {
				next.Penalty.Count++
				next.Penalty.Last = now.UnixMilli()
				d.Write = true
				return next, d
			})
		},
	}
}
