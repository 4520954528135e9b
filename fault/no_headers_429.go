package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
)

// NoHeaders429 drops the rate-limit headers from 429 responses.
const NoHeaders429 Name = "no-headers-429"

func noHeaders429() Fault {
	return Fault{
		Name:        NoHeaders429,
		Breaks:      clause.Of(clause.FR7, clause.AC3),
		Description: "429 responses carry no X-RateLimit-* headers",
		Detectors:   Detectors{Scenarios: []string{"AC3-01", "FR-7-01"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
				return onHeaders(h, func(_ *http.Request, status int, hdr http.Header) {
					if status == http.StatusTooManyRequests {
						dropRateLimitHeaders(hdr)
					}
				})
			}}
		},
	}
}
