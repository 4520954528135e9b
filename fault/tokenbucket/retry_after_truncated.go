package tokenbucket

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
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
		Wrap: fault.EditStep(func(s *fault.Step) {
			if !s.D.Allowed {
				ra := time.Duration(1.0/s.Cfg.Rate) * time.Second
				s.D.RetryAfter = int64(ra / time.Second)
			}
		}),
	}
}
