package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
)

// NoHeadersFallback drops the rate-limit headers of requests keyed by
// address.
const NoHeadersFallback Name = "no-headers-ip-fallback"

func noHeadersFallback() Fault {
	return Fault{
		Name:        NoHeadersFallback,
		Breaks:      clause.Of(clause.FR7, clause.AC5),
		Description: "responses keyed by the IP fallback carry no X-RateLimit-* headers (set only when the body names a device)",
		Detectors:   Detectors{Scenarios: []string{"FR-7-02"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if isRidePost(r) {
						_, ride, perr, ok := peekRide(r)
						if ok && perr == nil && !(ride.HasBucket && fakeserver.ValidDeviceBucket(ride.DeviceBucket)) {
							w = &headerHook{ResponseWriter: w, hook: func(_ int, hdr http.Header) { dropRateLimitHeaders(hdr) }}
						}
					}
					h.ServeHTTP(w, r)
				})
			}}
		},
	}
}
