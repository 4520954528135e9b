package service

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Header names of the PRD (FR-7) and of RFC 9110 Retry-After.
const (
	HeaderLimit      = "X-RateLimit-Limit"
	HeaderRemaining  = "X-RateLimit-Remaining"
	HeaderReset      = "X-RateLimit-Reset"
	HeaderRetryAfter = "Retry-After"
	HeaderIdemKey    = "Idempotency-Key"
)

// RateLimit is the parsed X-RateLimit-* headers of one response.
type RateLimit struct {
	Limit, Remaining, Reset int64
	// RetryAfter is Retry-After in seconds, or -1 when absent.
	RetryAfter int64
}

// HeaderError names a rate-limit header that is missing or malformed and
// what it carried instead.
type HeaderError struct {
	Header string
	Value  string // raw value; empty when missing
	Reason string
}

func (e *HeaderError) Error() string {
	if e.Value == "" && e.Reason == "missing" {
		return fmt.Sprintf("%s is missing", e.Header)
	}
	return fmt.Sprintf("%s: %q %s", e.Header, e.Value, e.Reason)
}

// ParseRateLimit reads the three X-RateLimit headers (all required) and
// Retry-After (optional; seconds). Every value must be a single non-negative
// decimal integer; anything else is a *HeaderError.
func ParseRateLimit(h http.Header) (RateLimit, error) {
	rl := RateLimit{RetryAfter: -1}
	for _, f := range []struct {
		name string
		dst  *int64
	}{{HeaderLimit, &rl.Limit}, {HeaderRemaining, &rl.Remaining}, {HeaderReset, &rl.Reset}} {
		v, err := headerInt(h, f.name)
		if err != nil {
			return rl, err
		}
		*f.dst = v
	}
	return withRetryAfter(h, rl)
}

// withRetryAfter is rl with Retry-After read from h, when h carries one
// (-1 is left for none).
func withRetryAfter(h http.Header, rl RateLimit) (RateLimit, error) {
	if len(headerValues(h, HeaderRetryAfter)) > 0 {
		v, err := headerInt(h, HeaderRetryAfter)
		if err != nil {
			return rl, err
		}
		rl.RetryAfter = v
	}
	return rl, nil
}

// The canonical forms of the headers ParseRateLimit reads: h.Values
// canonicalises its argument on every call, which was most of the race
// hunter's time reading a long history.
var (
	canonicalLimit      = http.CanonicalHeaderKey(HeaderLimit)
	canonicalRemaining  = http.CanonicalHeaderKey(HeaderRemaining)
	canonicalReset      = http.CanonicalHeaderKey(HeaderReset)
	canonicalRetryAfter = http.CanonicalHeaderKey(HeaderRetryAfter)
)

// headerValues is h.Values(name).
func headerValues(h http.Header, name string) []string {
	switch name {
	case HeaderLimit:
		return h[canonicalLimit]
	case HeaderRemaining:
		return h[canonicalRemaining]
	case HeaderReset:
		return h[canonicalReset]
	case HeaderRetryAfter:
		return h[canonicalRetryAfter]
	}
	return h.Values(name)
}

func headerInt(h http.Header, name string) (int64, error) {
	vs := headerValues(h, name)
	switch {
	case len(vs) == 0:
		return 0, &HeaderError{Header: name, Reason: "missing"}
	case len(vs) > 1:
		return 0, &HeaderError{Header: name, Value: strings.Join(vs, ", "), Reason: "appears more than once"}
	}
	s := strings.TrimSpace(vs[0])
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, &HeaderError{Header: name, Value: vs[0], Reason: "is not a non-negative integer"}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, &HeaderError{Header: name, Value: vs[0], Reason: "is out of range"}
	}
	return n, nil
}
