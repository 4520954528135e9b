package fault

import (
	"net/http"
	"strings"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
)

// NoIPFallback keys every request without a valid device by one bucket.
const NoIPFallback Name = "no-ip-fallback"

func noIPFallback() Fault {
	return Fault{
		Name:        NoIPFallback,
		Breaks:      clause.Of(clause.AC5, clause.FR2),
		Description: "a request without device_bucket is keyed by one global bucket shared by every client",
		Detectors:   Detectors{Scenarios: []string{"AC5-01", "AC5-03"}},
		Wrap:        addressesShare("global"),
	}
}

// addressesShare keys every request the correct keyer keys by client
// address by the one bucket id instead.
func addressesShare(id string) func(fakeserver.Config) fakeserver.Wrap {
	return func(fakeserver.Config) fakeserver.Wrap {
		return fakeserver.Wrap{Keyer: func(k fakeserver.Keyer) fakeserver.Keyer {
			return keyFunc(func(r *http.Request, ride fakeserver.Ride) string {
				if got := k.Key(r, ride); !strings.HasPrefix(got, fakeserver.AddressPrefix) {
					return got
				}
				return id
			})
		}}
	}
}
