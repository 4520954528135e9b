package fixedwindow

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// LimitFromRemaining is the fault FWLimitFromRemaining (its Name says what it breaks).
func LimitFromRemaining() fault.Fault {
	return fault.Fault{
		Name:        FWLimitFromRemaining,
		Breaks:      clause.Of(clause.FW5),
		Description: "spec/003: X-RateLimit-Limit = Remaining + 1 (derived from Remaining, not the configured N)",
		Seed:        "spec/003 middleware: `X-RateLimit-Limit` = `result.Remaining+1`",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-5-01"}},
		Profile:     profile.FixedWindow,
		Wrap:        fault.LimitFromRemaining,
	}
}
