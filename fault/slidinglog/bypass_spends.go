package slidinglog

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// BypassSpends is the fault BypassSpendsName (its Name says what it breaks).
func BypassSpends() fault.Fault {
	return fault.Fault{
		Name:        BypassSpendsName,
		Breaks:      clause.Of(clause.SL10),
		Description: "bypass requests are allowed but still spend the key's quota",
		Seed:        "spec/002's middleware recording before the role check",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-10-01"}},
		Profile:     profile.SlidingLog,
		Wrap: fault.Intercept(func(cfg fakeserver.Config, h http.Handler, w http.ResponseWriter, r *http.Request) {
			plain := r.Clone(r.Context())
			for name := range cfg.Bypass {
				plain.Header.Del(name)
			}
			if len(plain.Header) != len(r.Header) {
				h.ServeHTTP(fault.Discard(http.Header{}), plain) // spends
			}
			h.ServeHTTP(w, r)
		}),
	}
}
