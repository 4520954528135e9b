package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
)

// BypassSpends lets a bypass identity through but records its requests
// against the key first (the limiter's checkAndRecord runs before the role
// check): the normal identity of the same key finds its quota spent.
const BypassSpends Name = "bypass-spends"

func bypassSpends() Fault {
	return Fault{
		Name:        BypassSpends,
		Breaks:      clause.Of(clause.SL10),
		Description: "bypass requests are allowed but still spend the key's quota",
		Detectors:   Detectors{Scenarios: []string{"SL-10-01"}},
		Profile:     profile.SlidingLog,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					plain := r.Clone(r.Context())
					for name := range cfg.Bypass {
						plain.Header.Del(name)
					}
					if len(plain.Header) != len(r.Header) {
						h.ServeHTTP(discard{header: http.Header{}}, plain) // spends
					}
					h.ServeHTTP(w, r)
				})
			}}
		},
	}
}
