package fakeserver

import (
	"fmt"
	"net/http"
	"strings"
)

// bypassed reports whether r carries one of the bypass headers
// (RL_BYPASS_HEADERS, spec/002's admin bypass): such a request skips the
// limiter, spending nothing and carrying no rate-limit headers.
func (s *Server) bypassed(r *http.Request) bool {
	for name, values := range s.cfg.Bypass {
		for _, v := range values {
			for _, got := range r.Header.Values(name) {
				if strings.TrimSpace(got) == v {
					return true
				}
			}
		}
	}
	return false
}

// ParseBypass reads RL_BYPASS_HEADERS: ';'-separated "Name: value".
func ParseBypass(s string) (http.Header, error) {
	h := http.Header{}
	for _, part := range strings.Split(s, ";") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		name, value, ok := strings.Cut(part, ":")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		if !ok || name == "" || value == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("%q is not Name: value", part)
		}
		h.Add(name, value)
	}
	if len(h) == 0 {
		return nil, fmt.Errorf("no headers in %q", s)
	}
	return h, nil
}
