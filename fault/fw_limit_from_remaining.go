package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/profile"
)

// FWLimitFromRemaining is spec/003's middleware:
// w.Header().Set("X-RateLimit-Limit", fmt.Sprintf("%d", result.Remaining+1)).
const FWLimitFromRemaining Name = "fw-limit-from-remaining"

func fwLimitFromRemaining() Fault {
	return Fault{
		Name:        FWLimitFromRemaining,
		Breaks:      clause.Of(clause.FW5),
		Description: "spec/003: X-RateLimit-Limit = Remaining + 1 (derived from Remaining, not the configured N)",
		Seed:        "spec/003 middleware: `X-RateLimit-Limit` = `result.Remaining+1`",
		Detectors:   Detectors{Scenarios: []string{"FW-5-01"}},
		Profile:     profile.FixedWindow,
		Wrap:        limitFromRemaining,
	}
}

// limitFromRemaining is spec/003's middleware line (871), whatever the
// algorithm behind it.
func limitFromRemaining(cfg fakeserver.Config) fakeserver.Wrap {
	return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
		return onQuota(cfg, h, func(_ int, q *dialect.Quota) { q.Limit = q.Remaining + 1 })
	}}
}
