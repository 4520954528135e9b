package fault

import (
	"github.com/rlspec/rlspec/clause"
)

// TBLimitFromRemaining is spec/003's middleware (line 871) in front of its
// token bucket: X-RateLimit-Limit = result.Remaining+1, so Limit is B only
// on a full bucket's first request.
const TBLimitFromRemaining Name = "tb-limit-from-remaining"

func tbLimitFromRemaining() Fault {
	return Fault{
		Name:        TBLimitFromRemaining,
		Breaks:      clause.Of(clause.TB7),
		Description: "spec/003 middleware: X-RateLimit-Limit = Remaining + 1 in front of the token bucket (not B)",
		Detectors:   Detectors{Scenarios: []string{"TB-7-01"}},
		Profile:     profile.TokenBucket,
		Wrap:        limitFromRemaining,
	}
}
