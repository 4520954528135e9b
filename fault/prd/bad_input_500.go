package prd

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// BadInput500 is the fault BadInput500Name (its Name says what it breaks).
func BadInput500() fault.Fault {
	return fault.Fault{
		Name:        BadInput500Name,
		Breaks:      clause.Of(clause.Extended),
		Description: "malformed JSON is answered 500",
		Detectors:   fault.Detectors{Scenarios: []string{"EXT-BAD-01.1"}},
		Wrap: fault.Intercept(func(_ fakeserver.Config, h http.Handler, w http.ResponseWriter, r *http.Request) {
			if fault.IsRidePost(r) {
				if _, _, perr, ok := fault.PeekRide(r); ok && perr != nil {
					w.Header().Set("Content-Type", "application/json")
					w.WriteHeader(http.StatusInternalServerError)
					_, _ = w.Write([]byte(`{"error":"internal","message":"could not process the ride"}`))
					return
				}
			}
			h.ServeHTTP(w, r)
		}),
	}
}
