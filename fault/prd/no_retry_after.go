package prd

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// NoRetryAfter is the fault NoRetryAfterName (its Name says what it breaks).
func NoRetryAfter() fault.Fault {
	return fault.Fault{
		Name:        NoRetryAfterName,
		Breaks:      clause.Of(clause.AC3),
		Description: "429 responses carry no Retry-After",
		Detectors:   fault.Detectors{Scenarios: []string{"AC3-02"}},
		Wrap: fault.EditHeaders(func(_ fakeserver.Config, status int, hdr http.Header) {
			if status == http.StatusTooManyRequests {
				hdr.Del("Retry-After")
			}
		}),
	}
}
