package leakybucket

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// LostUpdate is the fault LBLostUpdate (its Name says what it breaks).
func LostUpdate() fault.Fault {
	return fault.Fault{
		Name:        LBLostUpdate,
		Breaks:      clause.Of(clause.LB2, clause.LB1),
		Description: "a non-atomic update of the queue: requests of a key within 200 ms read the same queue and take the same turn",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-1-01", "LB-2-01"}, Race: true, Replicas: 1},
		Profile:     profile.LeakyBucket,
		Wrap:        fault.LostUpdate,
	}
}
