package prd

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// NoHeadersFlagOff is the fault NoHeadersFlagOffName (its Name says what it breaks).
func NoHeadersFlagOff() fault.Fault {
	return fault.Fault{
		Name:        NoHeadersFlagOffName,
		Breaks:      clause.Of(clause.AC8, clause.FR7),
		Description: "with the flag off no X-RateLimit-* headers are sent",
		Detectors:   fault.Detectors{Scenarios: []string{"AC8-01", "AC8-02"}},
		Wrap: fault.EditHeaders(func(cfg fakeserver.Config, _ int, hdr http.Header) {
			if !cfg.Enabled { // the defect shows only with the flag off
				fault.DropRateLimitHeaders(hdr)
			}
		}),
	}
}
