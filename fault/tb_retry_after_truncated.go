package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
)

// TBRetryAfterTruncated is spec/003's Retry-After of a refused token-bucket
// request (line 584): time.Duration(1.0/float64(config.RefillRate)) *
// time.Second converts 1/R to a Duration (nanoseconds) before scaling it,
// truncating it to whole nanoseconds first: 0 for every rate of 2/s or more.
const TBRetryAfterTruncated Name = "tb-retry-after-truncated"

func tbRetryAfterTruncated() Fault {
	return Fault{
		Name:        TBRetryAfterTruncated,
		Breaks:      clause.Of(clause.TB6),
		Description: "spec/003 Retry-After time.Duration(1.0/float64(RefillRate)) * time.Second: 0 for rates of 2/s or more",
		Detectors:   Detectors{Scenarios: []string{"TB-6-01"}},
		Profile:     profile.TokenBucket,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return wrapModel(func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				next, d := m.Step(st, req, now)
				if !d.Allowed {
					ra := time.Duration(1.0/cfg.Rate) * time.Second
					d.RetryAfter = int64(ra / time.Second)
				}
				return next, d
			})
		},
	}
}
