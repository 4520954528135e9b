package fakeserver

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// Keyer names the bucket a request spends from.
type Keyer interface {
	Key(r *http.Request, ride Ride) string
}

// AddressPrefix starts the bucket id of a request keyed by its client
// address.
const AddressPrefix = "ip:"

// DeviceKeyer is the PRD's keying (FR-2, AC5, AC9): a valid device_bucket
// lower-cased, otherwise "ip:" and the client address.
type DeviceKeyer struct {
	TrustedProxies []netip.Prefix
}

var _ Keyer = DeviceKeyer{}

// Key is the canonical bucket id.
func (k DeviceKeyer) Key(r *http.Request, ride Ride) string {
	if ride.HasBucket && ValidDeviceBucket(ride.DeviceBucket) {
		return strings.ToLower(ride.DeviceBucket)
	}
	return AddressPrefix + k.ClientAddr(r)
}

// ClientAddr is the client address a request is keyed by: the TCP peer, or,
// when the peer is a trusted proxy, the right-most X-Forwarded-For address
// that is not a trusted proxy.
func (k DeviceKeyer) ClientAddr(r *http.Request) string {
	peer, ok := PeerAddr(r.RemoteAddr)
	if !ok {
		return r.RemoteAddr
	}
	return ClientFromChain(peer, ForwardedFor(r.Header), k.TrustedProxies).String()
}

// ClientFromChain walks X-Forwarded-For from the right, starting at the TCP
// peer: while the current hop is a trusted proxy, the address it reported is
// the next hop. It stops at the first untrusted hop, at an unparsable entry
// (keeping the last trusted hop) or at the left end.
func ClientFromChain(peer netip.Addr, xff []string, trusted []netip.Prefix) netip.Addr {
	cur := peer.Unmap()
	for i := len(xff) - 1; i >= 0 && isTrusted(cur, trusted); i-- {
		a, err := netip.ParseAddr(strings.TrimSpace(xff[i]))
		if err != nil {
			break
		}
		cur = a.Unmap().WithZone("")
	}
	return cur
}

func isTrusted(a netip.Addr, trusted []netip.Prefix) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// ForwardedFor is every X-Forwarded-For entry, left to right.
func ForwardedFor(h http.Header) []string {
	var out []string
	for _, v := range h.Values("X-Forwarded-For") {
		for _, part := range strings.Split(v, ",") {
			if p := strings.TrimSpace(part); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// PeerAddr parses the TCP peer of r.RemoteAddr.
func PeerAddr(remote string) (netip.Addr, bool) {
	if ap, err := netip.ParseAddrPort(remote); err == nil {
		return ap.Addr().Unmap().WithZone(""), true
	}
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

// ValidDeviceBucket reports whether v is exactly 64 hex characters.
func ValidDeviceBucket(v string) bool {
	if len(v) != 64 {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
