package fault

import (
	"net/http"
	"net/netip"
	"strings"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
)

// TrustXFF keys by the left-most X-Forwarded-For address from any peer.
const TrustXFF Name = "trust-xff"

func trustXFF() Fault {
	return Fault{
		Name:        TrustXFF,
		Breaks:      clause.Of(clause.AC5, clause.FR2),
		Description: "X-Forwarded-For is trusted from any peer (its left-most address is the key)",
		Detectors:   Detectors{Scenarios: []string{"EXT-XFF-01"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Keyer: func(k fakeserver.Keyer) fakeserver.Keyer {
				return keyFunc(func(r *http.Request, ride fakeserver.Ride) string {
					id := k.Key(r, ride)
					if !strings.HasPrefix(id, fakeserver.AddressPrefix) {
						return id
					}
					if xff := fakeserver.ForwardedFor(r.Header); len(xff) > 0 {
						if a, err := netip.ParseAddr(strings.TrimSpace(xff[0])); err == nil {
							return fakeserver.AddressPrefix + a.Unmap().String()
						}
					}
					if peer, ok := fakeserver.PeerAddr(r.RemoteAddr); ok {
						return fakeserver.AddressPrefix + peer.String()
					}
					return id
				})
			}}
		},
	}
}
