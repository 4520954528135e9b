package slidinglog

import (
	"net/http"
	"strconv"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// IetfResetTimestamp is the fault IETFResetTimestamp (its Name says what it breaks).
func IetfResetTimestamp() fault.Fault {
	return fault.Fault{
		Name:        IETFResetTimestamp,
		Breaks:      clause.Of(clause.IETF1),
		Description: "RateLimit's t is the reset's unix second, not the seconds until it",
		Detectors:   fault.Detectors{Scenarios: []string{"IETF-1-01"}},
		Profile:     profile.SlidingLog,
		Wrap: fault.EditHeaders(func(cfg fakeserver.Config, _ int, hdr http.Header) {
			f, err := dialect.ReadIETF(hdr)
			reset, rerr := strconv.ParseInt(hdr.Get("X-RateLimit-Reset"), 10, 64)
			if err != nil || rerr != nil {
				return
			}
			_ = dialect.FormatIETF(hdr, f.Policy.Name, int(f.Policy.Quota), cfg.Window, f.Limit.Remaining, reset)
		}),
	}
}
