package service

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/redact"
)

// Resolver looks a host name up (net.DefaultResolver; a stub in tests).
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

var _ Resolver = (*net.Resolver)(nil)

// CheckClientIPs reports, before any request, a target that CLIENT_IPS=bind
// cannot reach: bind sends each scenario from its own address in
// 127.0.0.0/8, which the kernel refuses towards another host ("connect:
// invalid argument" in every scenario), so every instance must resolve to
// IPv4 loopback addresses only, the instances urls (TARGET_URLS, replicas)
// too. r nil is net.DefaultResolver. The error is
// one sentence that says what to set.
func (c Config) CheckClientIPs(ctx context.Context, r Resolver, urls []string) error {
	if c.SQL != "" || (c.ClientIPs != httpclient.Bind && c.ClientIPs != "") {
		return nil
	}
	if r == nil {
		r = net.DefaultResolver
	}
	named := []struct{ name, url string }{{"TARGET_URL", c.URL}, {"TARGET_URL_DISABLED", c.DisabledURL}, {"TARGET_URL_PENALTIES", c.PenaltiesURL}}
	for _, u := range urls {
		named = append(named, struct{ name, url string }{"TARGET_URLS", u})
	}
	for _, u := range named {
		if u.url == "" {
			continue
		}
		p, err := url.Parse(u.url)
		if err != nil {
			continue // Validate names it
		}
		addrs, err := lookup(ctx, r, p.Hostname())
		if err != nil {
			return fmt.Errorf("%s=%s: the host %s does not resolve: %w", u.name, redact.URL(u.url), p.Hostname(), err)
		}
		if bad, ok := notLoopback(addrs); !ok {
			return fmt.Errorf("%s=%s resolves to %s, not an IPv4 loopback address, and CLIENT_IPS=bind (the default) sends from 127.x.y.z, which the kernel refuses towards another host: set CLIENT_IPS=xff (the service must then take the client address from X-Forwarded-For) or run rlspec where the service answers on 127.0.0.1",
				u.name, redact.URL(u.url), bad)
		}
	}
	return nil
}

// lookup resolves host, an address literal without a lookup.
func lookup(ctx context.Context, r Resolver, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{a.Unmap()}, nil
	}
	addrs, err := r.LookupNetIP(ctx, "ip", host)
	if err == nil && len(addrs) == 0 {
		err = errors.New("no address")
	}
	return addrs, err
}

// notLoopback returns the first address a bound 127.x.y.z source cannot
// reach — any IPv4 address outside 127.0.0.0/8, or, when there is no IPv4
// address at all, the first IPv6 one — and false; or "", true.
func notLoopback(addrs []netip.Addr) (string, bool) {
	v4 := 0
	for _, a := range addrs {
		if a = a.Unmap(); a.Is4() {
			v4++
			if !a.IsLoopback() {
				return a.String(), false
			}
		}
	}
	if v4 == 0 {
		return addrs[0].String() + " (IPv6 only)", false
	}
	return "", true
}
