package tokenbucket

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// WholeSecondRefill is the fault TBWholeSecondRefill (its Name says what it breaks).
func WholeSecondRefill() fault.Fault {
	return fault.Fault{
		Name:        TBWholeSecondRefill,
		Breaks:      clause.Of(clause.TB4),
		Description: "spec/003 refill int(elapsed.Seconds()) * RefillRate with the last refill restarted on every update: a steady client below the rate is refused",
		Seed:        "spec/003 `tokenBucketCheck` line 561: `tokensToAdd := int(timeSinceRefill.Seconds()) * config.RefillRate`, with `updateTokenCount(…, now)` (line 573) restarting the last refill on every update",
		Detectors:   fault.Detectors{Scenarios: []string{"TB-4-01"}},
		Profile:     profile.TokenBucket,
		Wrap:        seeded(seedBucket{refill: refillWholeSeconds}),
	}
}
