package tokenbucket

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// Uncapped is the fault TBUncapped (its Name says what it breaks).
func Uncapped() fault.Fault {
	return fault.Fault{
		Name:        TBUncapped,
		Breaks:      clause.Of(clause.TB1),
		Description: "tokens not capped at B after a long idle: min(BurstSize, tokens+tokensToAdd) without the min",
		Seed:        "spec/003 line 562 `tokens = min(config.BurstSize, tokens+tokensToAdd)` without the `min`",
		Detectors:   fault.Detectors{Scenarios: []string{"TB-1-01"}},
		Profile:     profile.TokenBucket,
		Wrap:        seeded(seedBucket{uncapped: true}),
	}
}
