package tokenbucket

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// LostUpdate is the fault TBLostUpdate (its Name says what it breaks).
func LostUpdate() fault.Fault {
	f := fault.LostUpdateOf(TBLostUpdate, profile.TokenBucket, clause.Of(clause.TB5, clause.TB2, clause.TB1),
		"a non-atomic read-modify-write of the token count: requests of a key within 200 ms read the same count and each spend it",
		"TB-5-01", "TB-2-01")
	f.Seed = "spec/003 lines 550-575: the count read, then written back by an upsert, not atomically; deterministic here: a key's count read once is what its requests read while they come less than 200 ms apart"
	return f
}
