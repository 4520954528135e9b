package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
)

// SLRetryAfterWindow answers every 429 with Retry-After = W (spec/002's
// fallback when no oldest entry is found), however soon the oldest allowed
// request leaves the window.
const SLRetryAfterWindow Name = "sl-retry-after-window"

// SLRetryAfterShort answers every 429 with Retry-After: 1, however long
// the oldest allowed request stays in the window.
const SLRetryAfterShort Name = "sl-retry-after-short"

func slRetryAfterWindow() Fault {
	return Fault{
		Name:        SLRetryAfterWindow,
		Breaks:      clause.Of(clause.SL6),
		Description: "spec/002: Retry-After (and the body's retryAfter) always W, not when the oldest allowed request leaves",
		Detectors:   Detectors{Scenarios: []string{"SL-6-01"}},
		Profile:     profile.SlidingLog,
		Wrap:        retryAfterIs(func(w int64) int64 { return w }),
	}
}

func slRetryAfterShort() Fault {
	return Fault{
		Name:        SLRetryAfterShort,
		Breaks:      clause.Of(clause.SL4),
		Description: "Retry-After always 1 s: a client that waits for it is refused again",
		Detectors:   Detectors{Scenarios: []string{"SL-4-01"}},
		Profile:     profile.SlidingLog,
		Wrap:        retryAfterIs(func(int64) int64 { return 1 }),
	}
}

// retryAfterIs sets a refusal's RetryAfter to f(W) and its Reset to now
// plus that, so headers and body agree.
func retryAfterIs(f func(w int64) int64) func(fakeserver.Config) fakeserver.Wrap {
	return func(cfg fakeserver.Config) fakeserver.Wrap {
		ra := f(int64(cfg.Window / time.Second))
		return wrapModel(func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := m.Step(st, req, now)
			if !d.Allowed {
				d.RetryAfter, d.Reset = ra, now.Unix()+ra
			}
			return next, d
		})
	}
}
