package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
)

// NoRetryAfter drops Retry-After from 429 responses.
const NoRetryAfter Name = "no-retry-after"

func noRetryAfter() Fault {
	return Fault{
		Name:        NoRetryAfter,
		Breaks:      clause.Of(clause.AC3),
		Description: "429 responses carry no Retry-After",
		Detectors:   Detectors{Scenarios: []string{"AC3-02"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
				return onHeaders(h, func(_ *http.Request, status int, hdr http.Header) {
					if status == http.StatusTooManyRequests {
						hdr.Del("Retry-After")
					}
				})
			}}
		},
	}
}
