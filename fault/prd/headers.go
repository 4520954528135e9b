package prd

import (
	"net/http"
	"strconv"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// NoHeaders429 is the fault NoHeaders429Name (its Name says what it breaks).
func NoHeaders429() fault.Fault {
	return fault.Fault{
		Name:        NoHeaders429Name,
		Breaks:      clause.Of(clause.FR7, clause.AC3),
		Description: "429 responses carry no X-RateLimit-* headers",
		Detectors:   fault.Detectors{Scenarios: []string{"AC3-01", "FR-7-01"}},
		Wrap: fault.EditHeaders(func(_ fakeserver.Config, status int, hdr http.Header) {
			if status == http.StatusTooManyRequests {
				fault.DropRateLimitHeaders(hdr)
			}
		}),
	}
}

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

// NoRetryAfter is the fault NoRetryAfterName (its Name says what it breaks).
func NoRetryAfter() fault.Fault {
	return fault.Fault{
		Name:        NoRetryAfterName,
		Breaks:      clause.Of(clause.AC3),
		Description: "429 responses carry no Retry-After",
		Detectors:   fault.Detectors{Scenarios: []string{"AC3-02"}},
		Wrap: fault.EditHeaders(func(_ fakeserver.Config, status int, hdr http.Header) {
			if status == http.StatusTooManyRequests {
				hdr.Del("Retry-After")
			}
		}),
	}
}

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
