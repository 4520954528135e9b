package tokenbucket

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// BinaryRefill is the fault TBBinaryRefill (its Name says what it breaks).
func BinaryRefill() fault.Fault {
	return fault.Fault{
		Name:        TBBinaryRefill,
		Breaks:      clause.Of(clause.TB3, clause.TB4),
		Description: "spec/000 binary reset: the bucket refills to B once B/R has passed since its last refill, nothing before",
		Seed:        "spec/000 \"Refill Strategy: Binary reset\" (line 169, `refill_if_needed` lines 176-205) at period B/R",
		Detectors:   fault.Detectors{Scenarios: []string{"TB-3-01", "TB-4-01"}},
		Profile:     profile.TokenBucket,
		Wrap:        seeded(seedBucket{refill: refillBinary}),
	}
}
