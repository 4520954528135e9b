package fault

import (
	"github.com/rlspec/rlspec/clause"
)

// TBUncapped refills without the cap: spec/003's
// tokens = min(config.BurstSize, tokens+tokensToAdd) (line 562) without
// the min. A key that idles long gathers more than B tokens and lets a
// burst beyond B + R·Δt through.
const TBUncapped Name = "tb-uncapped"

func tbUncapped() Fault {
	return Fault{
		Name:        TBUncapped,
		Breaks:      clause.Of(clause.TB1),
		Description: "tokens not capped at B after a long idle: min(BurstSize, tokens+tokensToAdd) without the min",
		Detectors:   Detectors{Scenarios: []string{"TB-1-01"}},
		Profile:     profile.TokenBucket,
		Wrap: seedModel(func(burst int, rate float64) seedBucket {
			return seedBucket{burst: burst, rate: rate, uncapped: true}
		}),
	}
}
