package fault

import (
	"net/http"
	"strings"

	"github.com/rlspec/rlspec/fakeserver"
)

// Rekey is the Wrap of a keying fault: key gives each request's bucket
// id, given the correct keyer k.
func Rekey(key func(k fakeserver.Keyer, r *http.Request, ride fakeserver.Ride) string) func(fakeserver.Config) fakeserver.Wrap {
	return func(fakeserver.Config) fakeserver.Wrap {
		return fakeserver.Wrap{Keyer: func(k fakeserver.Keyer) fakeserver.Keyer {
			return KeyFunc(func(r *http.Request, ride fakeserver.Ride) string { return key(k, r, ride) })
		}}
	}
}

// AddressesShare keys every request the correct keyer keys by client
// address by the one bucket id instead.
func AddressesShare(id string) func(fakeserver.Config) fakeserver.Wrap {
	return Rekey(func(k fakeserver.Keyer, r *http.Request, ride fakeserver.Ride) string {
		if got := k.Key(r, ride); !strings.HasPrefix(got, fakeserver.AddressPrefix) {
			return got
		}
		return id
	})
}

// KeyIgnored keys every request by its client address, whatever key it
// carries.
func KeyIgnored(cfg fakeserver.Config) fakeserver.Wrap {
	byAddr := fakeserver.DeviceKeyer{TrustedProxies: cfg.TrustedProxies}
	return fakeserver.Wrap{Keyer: func(fakeserver.Keyer) fakeserver.Keyer {
		return KeyFunc(func(r *http.Request, _ fakeserver.Ride) string {
			return fakeserver.AddressPrefix + byAddr.ClientAddr(r)
		})
	}}
}
