package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
)

// SWCRetryAfterShort answers every refusal of the sliding-window counter
// with Retry-After: 1, however long the estimate stays at N: a client
// that waits for it is refused again (SWC-5).
const SWCRetryAfterShort Name = "swc-retry-after-short"

func swcRetryAfterShort() Fault {
	return Fault{
		Name:        SWCRetryAfterShort,
		Breaks:      clause.Of(clause.SWC5),
		Description: "Retry-After always 1 s: a client that waits for it is refused again",
		Detectors:   Detectors{Scenarios: []string{"SWC-5-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        retryAfterIs(func(int64) int64 { return 1 }),
	}
}
