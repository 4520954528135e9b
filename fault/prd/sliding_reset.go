package prd

import (
	"net/http"
	"strconv"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// SlidingReset is the fault SlidingResetName (its Name says what it breaks).
func SlidingReset() fault.Fault {
	return fault.Fault{
		Name:        SlidingResetName,
		Breaks:      clause.Of(clause.AC3, clause.FR7),
		Description: "X-RateLimit-Reset is recomputed as now + window on every response",
		Detectors:   fault.Detectors{Scenarios: []string{"AC3-03", "EXT-RESET-01"}},
		Wrap: fault.EditHeaders(func(cfg fakeserver.Config, _ int, hdr http.Header) {
			if hdr.Get("X-RateLimit-Reset") != "" {
				reset := cfg.ClockOrWall().Now().Unix() + int64(cfg.Window/time.Second)
				hdr.Set("X-RateLimit-Reset", strconv.FormatInt(reset, 10))
			}
		}),
	}
}
