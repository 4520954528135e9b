package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
)

// BadInput500 answers a body that is not a ride with 500.
const BadInput500 Name = "bad-input-500"

func badInput500() Fault {
	return Fault{
		Name:        BadInput500,
		Breaks:      clause.Of(clause.Extended),
		Description: "malformed JSON is answered 500",
		Detectors:   Detectors{Scenarios: []string{"EXT-BAD-01.1"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if isRidePost(r) {
						if _, _, perr, ok := peekRide(r); ok && perr != nil {
							w.Header().Set("Content-Type", "application/json")
							w.WriteHeader(http.StatusInternalServerError)
							_, _ = w.Write([]byte(`{"error":"internal","message":"could not process the ride"}`))
							return
						}
					}
					h.ServeHTTP(w, r)
				})
			}}
		},
	}
}
