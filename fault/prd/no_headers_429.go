package prd

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// NoHeaders429 is the fault NoHeaders429Name (its Name says what it breaks).
func NoHeaders429() fault.Fault {
	return fault.Fault{
		Name:        NoHeaders429Name,
		Breaks:      clause.Of(clause.FR7, clause.AC3),
		Description: "429 responses carry no X-RateLimit-* headers",
		Detectors:   fault.Detectors{Scenarios: []string{"AC3-01", "FR-7-01"}},
		Wrap: fault.EditHeaders(func(_ fakeserver.Config, status int, hdr http.Header) {
			if status == http.StatusTooManyRequests {
				fault.DropRateLimitHeaders(hdr)
			}
		}),
	}
}
