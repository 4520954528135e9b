package tokenbucket

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// LimitFromRemaining is the fault TBLimitFromRemaining (its Name says what it breaks).
func LimitFromRemaining() fault.Fault {
	return fault.Fault{
		Name:        TBLimitFromRemaining,
		Breaks:      clause.Of(clause.TB7),
		Description: "spec/003 middleware: X-RateLimit-Limit = Remaining + 1 in front of the token bucket (not B)",
		Seed:        "spec/003 middleware line 871: `X-RateLimit-Limit` = `result.Remaining+1`, in front of the token bucket",
		Detectors:   fault.Detectors{Scenarios: []string{"TB-7-01"}},
		Profile:     profile.TokenBucket,
		Wrap:        fault.LimitFromRemaining,
	}
}
