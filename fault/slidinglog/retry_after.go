package slidinglog

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// RetryAfterWindow is the fault fault.SLRetryAfterWindow (its Name says what it breaks).
func RetryAfterWindow() fault.Fault {
	return fault.Fault{
		Name:        fault.SLRetryAfterWindow,
		Breaks:      clause.Of(clause.SL6),
		Description: "spec/002: Retry-After (and the body's retryAfter) always W, not when the oldest allowed request leaves",
		Seed:        "spec/002 `check()`: `retryAfter` falls back to W",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-6-01"}},
		Profile:     profile.SlidingLog,
		Wrap:        retryAfterIs(func(w int64) int64 { return w }),
	}
}

// RetryAfterShort is the fault fault.SLRetryAfterShort (its Name says what it breaks).
func RetryAfterShort() fault.Fault {
	return fault.Fault{
		Name:        fault.SLRetryAfterShort,
		Breaks:      clause.Of(clause.SL4),
		Description: "Retry-After always 1 s: a client that waits for it is refused again",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-4-01"}},
		Profile:     profile.SlidingLog,
		Wrap:        retryAfterIs(func(int64) int64 { return 1 }),
	}
}

// retryAfterIs sets a refusal's RetryAfter to f(W) and its Reset to now
// plus that, so headers and body agree.
func retryAfterIs(f func(w int64) int64) func(fakeserver.Config) fakeserver.Wrap {
	return func(cfg fakeserver.Config) fakeserver.Wrap {
		ra := f(int64(cfg.Window / time.Second))
		return fault.WrapModel(func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := m.Step(st, req, now)
			if !d.Allowed {
				d.RetryAfter, d.Reset = ra, now.Unix()+ra
			}
			return next, d
		})
	}
}
