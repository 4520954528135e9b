package prd

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// AuthSpends is the fault AuthSpendsName (its Name says what it breaks).
func AuthSpends() fault.Fault {
	return fault.Fault{
		Name:        AuthSpendsName,
		Breaks:      clause.Of(clause.Extended, clause.FR3),
		Description: "with REQUIRE_AUTH, a request with missing or wrong credentials spends a unit before it is refused with 401",
		Detectors:   fault.Detectors{Scenarios: []string{"EXT-AUTH-01"}},
		Wrap: fault.Intercept(func(cfg fakeserver.Config, h http.Handler, w http.ResponseWriter, r *http.Request) {
			if cfg.Authorized(r) || r.URL.Path == "/healthz" {
				h.ServeHTTP(w, r)
				return
			}
			// Decide the request as if it were authorised, drop the answer,
			// then refuse it.
			spend := r.Clone(r.Context())
			spend.Header.Set("Authorization", cfg.RequireAuth)
			h.ServeHTTP(fault.Discard(http.Header{}), spend)
			fakeserver.WriteUnauthorized(w)
		}),
	}
}
