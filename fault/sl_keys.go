package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/profile"
)

// SLKeyIgnored keys every request by its client address, ignoring
// X-User-ID: users behind one address share a quota.
const SLKeyIgnored Name = "sl-key-ignored"

// SLAnonymousShared keys every request without X-User-ID by one bucket
// shared by all clients.
const SLAnonymousShared Name = "sl-anonymous-shared"

func slKeyIgnored() Fault {
	return Fault{
		Name:        SLKeyIgnored,
		Breaks:      clause.Of(clause.SL8),
		Description: "the key header is ignored: every request is keyed by its client address",
		Detectors:   Detectors{Scenarios: []string{"SL-8-01"}},
		Profile:     profile.SlidingLog,
		Wrap:        keyIgnored,
	}
}

// keyIgnored keys every request by its client address, whatever key it
// carries.
func keyIgnored(cfg fakeserver.Config) fakeserver.Wrap {
	byAddr := fakeserver.DeviceKeyer{TrustedProxies: cfg.TrustedProxies}
	return fakeserver.Wrap{Keyer: func(fakeserver.Keyer) fakeserver.Keyer {
		return keyFunc(func(r *http.Request, _ fakeserver.Ride) string {
			return fakeserver.AddressPrefix + byAddr.ClientAddr(r)
		})
	}}
}

func slAnonymousShared() Fault {
	return Fault{
		Name:        SLAnonymousShared,
		Breaks:      clause.Of(clause.SL8),
		Description: "a request without the key header is keyed by one bucket shared by every client",
		Detectors:   Detectors{Scenarios: []string{"SL-8-02"}},
		Profile:     profile.SlidingLog,
		Wrap:        addressesShare("anonymous"),
	}
}
