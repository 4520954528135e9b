package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
)

// LBLostUpdate is a non-atomic update of the queue: the instant the queue
// is empty read, the request's turn computed from it and the next instant
// written back, not atomically — requests of a key that read the same
// instant get the same turn, so more than B + 1 are allowed at once
// (LB-2) and their answers leave faster than R (LB-1). Deterministic as
// TBLostUpdate.
const LBLostUpdate Name = "lb-lost-update"

func lbLostUpdate() Fault {
	return Fault{
		Name:        LBLostUpdate,
		Breaks:      clause.Of(clause.LB2, clause.LB1),
		Description: "a non-atomic update of the queue: requests of a key within 200 ms read the same queue and take the same turn",
		Detectors:   Detectors{Scenarios: []string{"LB-1-01", "LB-2-01"}, Race: true, Replicas: 1},
		Profile:     profile.LeakyBucket,
		Wrap:        lostUpdate,
	}
}
