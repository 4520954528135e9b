package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
)

// NoHeadersFlagOff sends no rate-limit headers while the flag is off.
const NoHeadersFlagOff Name = "no-headers-flag-off"

func noHeadersFlagOff() Fault {
	return Fault{
		Name:        NoHeadersFlagOff,
		Breaks:      clause.Of(clause.AC8, clause.FR7),
		Description: "with the flag off no X-RateLimit-* headers are sent",
		Detectors:   Detectors{Scenarios: []string{"AC8-01", "AC8-02"}},
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			if cfg.Enabled {
				return fakeserver.Wrap{} // the defect shows only with the flag off
			}
			return fakeserver.Wrap{Handler: func(h http.Handler) http.Handler {
				return onHeaders(h, func(_ *http.Request, _ int, hdr http.Header) { dropRateLimitHeaders(hdr) })
			}}
		},
	}
}
