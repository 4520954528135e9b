package service

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/redact"
)

// stubResolver answers from a table and records every host asked; it
// never reaches DNS.
type stubResolver map[string][]string

func (r stubResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	as, ok := r[host]
	if !ok {
		return nil, errors.New("no such host")
	}
	var out []netip.Addr
	for _, a := range as {
		out = append(out, netip.MustParseAddr(a))
	}
	return out, nil
}

func TestCheckClientIPsRefusesBindTowardsAnotherHost(t *testing.T) {
	r := stubResolver{"api": {"172.18.0.3"}, "localhost": {"::1", "127.0.0.1"}, "v6only": {"::1"}, "lo": {"127.0.0.2"}}
	for _, tc := range []struct {
		name, url, disabled string
		mode                httpclient.AddrMode
		want                string // "" no error
	}{
		{"compose service", "http://api:8080", "", httpclient.Bind, "TARGET_URL=http://api:8080 resolves to 172.18.0.3, not an IPv4 loopback address, and CLIENT_IPS=bind (the default) sends from 127.x.y.z"},
		{"default mode", "http://api:8080", "", "", "set CLIENT_IPS=xff"},
		{"address literal", "http://192.0.2.7:80", "", httpclient.Bind, "resolves to 192.0.2.7"},
		{"IPv6 only", "http://v6only:80", "", httpclient.Bind, "::1 (IPv6 only)"},
		{"the twin elsewhere", "http://lo:1", "http://api:2", httpclient.Bind, "TARGET_URL_DISABLED=http://api:2 resolves to 172.18.0.3"},
		{"credentials masked", "http://u:s3cr3t@api:8080", "", httpclient.Bind, "TARGET_URL=http://u:xxxxx@api:8080 resolves"},
		{"unknown host", "http://nowhere:1", "", httpclient.Bind, "the host nowhere does not resolve"},
		{"xff", "http://api:8080", "", httpclient.XFF, ""},
		{"localhost", "http://localhost:8080", "", httpclient.Bind, ""},
		{"loopback literal", "http://127.0.0.1:8080", "", httpclient.Bind, ""},
		{"IPv6 loopback literal", "http://[::1]:8080", "", httpclient.Bind, "::1 (IPv6 only)"},
	} {
		c := DefaultConfig()
		c.URL, c.DisabledURL, c.ClientIPs = tc.url, tc.disabled, tc.mode
		err := c.CheckClientIPs(context.Background(), r, nil)
		if (err == nil) != (tc.want == "") || (err != nil && !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the error shows the password: %v", tc.name, err)
		}
	}
}

func TestRedactURL(t *testing.T) {
	for _, tc := range []struct{ in, out, curl string }{
		{"http://h:1/api", "http://h:1/api", "'http://h:1/api'"},
		{"http://u:SECRET@h:1/api", "http://u:xxxxx@h:1/api", `"http://u:${RLSPEC_URL_PASSWORD}@h:1/api"`},
		{"https://TOKEN@h/x", "https://xxxxx@h/x", `"https://${RLSPEC_URL_USER}@h/x"`},
		{"http://h/x?token=SECRET&page=2&api_key=SECRET#top", "http://h/x?token=xxxxx&page=2&api_key=xxxxx#top",
			`"http://h/x?token=${RLSPEC_QUERY_TOKEN}&page=2&api_key=${RLSPEC_QUERY_API_KEY}#top"`},
		{"http://h/x?X-Amz-Signature=SECRET", "http://h/x?X-Amz-Signature=xxxxx", `"http://h/x?X-Amz-Signature=${RLSPEC_QUERY_X_AMZ_SIGNATURE}"`},
		{"http://u:SE%zz@h", "(unparsable URL withheld)", `"(unparsable URL withheld)"`},
	} {
		if got := redact.URL(tc.in); got != tc.out {
			t.Errorf("redact.URL(%q) = %q, want %q", tc.in, got, tc.out)
		}
		if got := redact.CurlURL(tc.in); got != tc.curl {
			t.Errorf("redact.CurlURL(%q) = %s, want %s", tc.in, got, tc.curl)
		}
	}
	if n := redact.URLCredentialNote("http://u:p@h/?sig=1&token=2"); !strings.Contains(n, "export RLSPEC_URL_PASSWORD, RLSPEC_QUERY_TOKEN with") {
		t.Errorf("note %q", n)
	}
}
