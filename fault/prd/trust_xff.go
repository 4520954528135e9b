package prd

import (
	"net/http"
	"net/netip"
	"strings"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
)

// TrustXFF is the fault TrustXFFName (its Name says what it breaks).
func TrustXFF() fault.Fault {
	return fault.Fault{
		Name:        TrustXFFName,
		Breaks:      clause.Of(clause.AC5, clause.FR2),
		Description: "X-Forwarded-For is trusted from any peer (its left-most address is the key)",
		Detectors:   fault.Detectors{Scenarios: []string{"EXT-XFF-01"}},
		Wrap: fault.Rekey(func(k fakeserver.Keyer, r *http.Request, ride fakeserver.Ride) string {
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
		}),
	}
}
