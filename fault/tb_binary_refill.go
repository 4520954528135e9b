package fault

import (
	"github.com/rlspec/rlspec/clause"
)

// TBBinaryRefill is spec/000's "binary reset" (Refill Strategy, line 169;
// refill_if_needed, lines 176-205) at the profile's period B/R: the bucket
// is filled to B once a whole period has passed since its last refill, and
// gets nothing back before — no gradual refill.
const TBBinaryRefill Name = "tb-binary-refill"

func tbBinaryRefill() Fault {
	return Fault{
		Name:        TBBinaryRefill,
		Breaks:      clause.Of(clause.TB3, clause.TB4),
		Description: "spec/000 binary reset: the bucket refills to B once B/R has passed since its last refill, nothing before",
		Detectors:   Detectors{Scenarios: []string{"TB-3-01", "TB-4-01"}},
		Profile:     profile.TokenBucket,
		Wrap: seedModel(func(burst int, rate float64) seedBucket {
			return seedBucket{burst: burst, rate: rate, refill: refillBinary}
		}),
	}
}
