package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
)

// AuthSpends spends a unit of a request's bucket before refusing it for its
// credentials.
const AuthSpends Name = "auth-spends"

func authSpends() Fault {
	return Fault{
		Name:        AuthSpends,
		Breaks:      clause.Of(clause.Extended, clause.FR3),
		Description: "with REQUIRE_AUTH, a request with missing or wrong credentials spends a unit before it is refused with 401",
		Detectors:   Detectors{Scenarios: []string{"EXT-AUTH-01"}},
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if cfg.Authorized(r) || r.URL.Path == "/healthz" {
						h.ServeHTTP(w, r)
						return
					}
					// Decide the request as if it were authorised, drop the
					// answer, then refuse it.
					spend := r.Clone(r.Context())
					spend.Header.Set("Authorization", cfg.RequireAuth)
					h.ServeHTTP(discard{header: http.Header{}}, spend)
					fakeserver.WriteUnauthorized(w)
				})
			}}
		},
	}
}

// discard is a ResponseWriter that keeps nothing.
type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}
