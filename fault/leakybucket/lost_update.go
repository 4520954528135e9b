package leakybucket

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// LostUpdate is the fault LBLostUpdate (its Name says what it breaks).
func LostUpdate() fault.Fault {
	return fault.LostUpdateOf(LBLostUpdate, profile.LeakyBucket, clause.Of(clause.LB2, clause.LB1),
		"a non-atomic update of the queue: requests of a key within 200 ms read the same queue and take the same turn",
		"LB-1-01", "LB-2-01")
}
