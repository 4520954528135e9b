package slidinglog

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// RetryAfterWindow is the fault SLRetryAfterWindow (its Name says what it breaks).
func RetryAfterWindow() fault.Fault {
	return fault.Fault{
		Name:        SLRetryAfterWindow,
		Breaks:      clause.Of(clause.SL6),
		Description: "spec/002: Retry-After (and the body's retryAfter) always W, not when the oldest allowed request leaves",
		Seed:        "spec/002 `check()`: `retryAfter` falls back to W",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-6-01"}},
		Profile:     profile.SlidingLog,
		Wrap:        fault.RetryAfterIs(func(w int64) int64 { return w }),
	}
}

// RetryAfterShort is the fault SLRetryAfterShort (its Name says what it breaks).
func RetryAfterShort() fault.Fault {
	return fault.Fault{
		Name:        SLRetryAfterShort,
		Breaks:      clause.Of(clause.SL4),
		Description: "Retry-After always 1 s: a client that waits for it is refused again",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-4-01"}},
		Profile:     profile.SlidingLog,
		Wrap:        fault.RetryAfterIs(func(int64) int64 { return 1 }),
	}
}
