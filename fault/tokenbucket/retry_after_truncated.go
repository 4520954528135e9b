package tokenbucket

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// RetryAfterTruncated is the fault TBRetryAfterTruncated (its Name says what it breaks).
func RetryAfterTruncated() fault.Fault {
	return fault.Fault{
		Name:        TBRetryAfterTruncated,
		Breaks:      clause.Of(clause.TB6),
		Description: "spec/003 Retry-After time.Duration(1.0/float64(RefillRate)) * time.Second: 0 for rates of 2/s or more",
		Seed:        "spec/003 line 584: `result.RetryAfter = time.Duration(1.0/float64(config.RefillRate)) * time.Second` (0 for R ≥ 2/s)",
		Detectors:   fault.Detectors{Scenarios: []string{"TB-6-01"}},
		Profile:     profile.TokenBucket,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := m.Step(st, req, now)
			if !d.Allowed {
				ra := time.Duration(1.0/cfg.Rate) * time.Second
				d.RetryAfter = int64(ra / time.Second)
			}
			return next, d
		}),
	}
}
