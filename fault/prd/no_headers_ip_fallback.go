package prd

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// NoHeadersFallback is the fault NoHeadersFallbackName (its Name says what it breaks).
func NoHeadersFallback() fault.Fault {
	return fault.Fault{
		Name:        NoHeadersFallbackName,
		Breaks:      clause.Of(clause.FR7, clause.AC5),
		Description: "responses keyed by the IP fallback carry no X-RateLimit-* headers (set only when the body names a device)",
		Detectors:   fault.Detectors{Scenarios: []string{"FR-7-02"}},
		Wrap: fault.Intercept(func(_ fakeserver.Config, h http.Handler, w http.ResponseWriter, r *http.Request) {
			if fault.IsRidePost(r) {
				_, ride, perr, ok := fault.PeekRide(r)
				if ok && perr == nil && !(ride.HasBucket && fakeserver.ValidDeviceBucket(ride.DeviceBucket)) {
					h = fault.OnHeaders(h, func(_ *http.Request, _ int, hdr http.Header) { fault.DropRateLimitHeaders(hdr) })
				}
			}
			h.ServeHTTP(w, r)
		}),
	}
}
