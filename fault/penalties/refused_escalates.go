package penalties

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// RefusedEscalates is the fault PNRefusedEscalates (its Name says what it breaks).
func RefusedEscalates() fault.Fault {
	return fault.Fault{
		Name:        PNRefusedEscalates,
		Breaks:      clause.Of(clause.PN4, clause.PN3),
		Description: "requests refused under a penalty raise the violation count (the penalty's end stays): the next violation escalates too far",
		Detectors:   fault.Detectors{Scenarios: []string{"PN-4-03"}},
		Profile:     profile.SlidingLog,
		Wrap: wrapRefusals(func(_ model.Penalties, _ model.State, _ model.Request, now time.Time, next model.State, d model.Decision) (model.State, model.Decision) {
			next.Penalty.Count++
			next.Penalty.Last = now.UnixMilli()
			d.Write = true
			return next, d
		}),
	}
}
