package fault

import (
	"github.com/rlspec/rlspec/clause"
)

// TBWholeSecondRefill is spec/003's tokenBucketCheck refill (line 561):
// tokensToAdd := int(timeSinceRefill.Seconds()) * config.RefillRate, with
// last_request_at set to now on every update (updateTokenCount, line 573).
// A client sending more often than once a second never earns a token back:
// a steady client below the rate is refused.
const TBWholeSecondRefill Name = "tb-whole-second-refill"

func tbWholeSecondRefill() Fault {
	return Fault{
		Name:        TBWholeSecondRefill,
		Breaks:      clause.Of(clause.TB4),
		Description: "spec/003 refill int(elapsed.Seconds()) * RefillRate with the last refill restarted on every update: a steady client below the rate is refused",
		Detectors:   Detectors{Scenarios: []string{"TB-4-01"}},
		Profile:     profile.TokenBucket,
		Wrap: seedModel(func(burst int, rate float64) seedBucket {
			return seedBucket{burst: burst, rate: rate, refill: refillWholeSeconds}
		}),
	}
}
