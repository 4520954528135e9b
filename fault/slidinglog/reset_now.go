package slidinglog

import (
	"net/http"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// ResetNow is the fault SLResetNow (its Name says what it breaks).
func ResetNow() fault.Fault {
	return fault.Fault{
		Name:        SLResetNow,
		Breaks:      clause.Of(clause.SL7),
		Description: "spec/002: resetAt = windowStart + W = now on allowed responses (X-RateLimit-Reset is the current second)",
		Seed:        "spec/002 `check()`: `resetAt: new Date((windowStart + W) * 1000)` = now",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-7-01"}},
		Profile:     profile.SlidingLog,
		Wrap: fault.EditQuota(func(status int, q *dialect.Quota) {
			if status == http.StatusOK {
				q.Reset = q.Now.Truncate(time.Second)
			}
		}),
	}
}
