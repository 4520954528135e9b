// Package dialect reads a rate limiter's answer — status, header fields and
// body of one HTTP response — into an Observation: Limit, Remaining, Reset
// as an instant, Retry-After (RFC 9110, read on its own), whether the
// response is a refusal and whether its body is the one LIMITED_BODY names,
// which fields were present and the raw lines that prove it. It knows every
// dialect of dialects.md (x-ratelimit with HEADER_PREFIX and RESET_FORMAT,
// ratelimit-fields, ratelimit-dict, ietf, status), detects one from a
// response (auto) with a sentence saying why, and writes each of them for
// servers that answer in it (the reference). Clauses compare observations
// with their model's expectation; nothing here is a verdict.
package dialect

import (
	"fmt"
	"strings"
)

// Dialect is how an implementation reports its limit (DIALECT).
type Dialect string

// The dialects of dialects.md. Unset (the zero value) means "the profile's
// default"; Auto is detected from the first responses.
const (
	Unset      Dialect = ""
	Auto       Dialect = "auto"
	XRateLimit Dialect = "x-ratelimit"
	Fields     Dialect = "ratelimit-fields"
	Dict       Dialect = "ratelimit-dict"
	IETF       Dialect = "ietf"
	Status     Dialect = "status"
)

// Dialects lists the values DIALECT takes.
func Dialects() []Dialect { return []Dialect{XRateLimit, Fields, Dict, IETF, Status, Auto} }

// ParseDialect reads DIALECT; "" is Unset.
func ParseDialect(s string) (Dialect, error) {
	d := Dialect(strings.ToLower(strings.TrimSpace(s)))
	if d == Unset {
		return Unset, nil
	}
	for _, k := range Dialects() {
		if d == k {
			return d, nil
		}
	}
	return Unset, fmt.Errorf("%q is none of %s", s, join(Dialects()))
}

// Concrete reports whether d names one dialect (neither Unset nor Auto).
func (d Dialect) Concrete() bool { return d != Unset && d != Auto }

// ResetFormat is how X-RateLimit-Reset is written (RESET_FORMAT).
type ResetFormat string

// The formats of RESET_FORMAT; ResetUnset means "the profile's default".
const (
	ResetUnset  ResetFormat = ""
	ResetAuto   ResetFormat = "auto"
	ResetUnix   ResetFormat = "unix"
	ResetUnixMS ResetFormat = "unix-ms"
	// ResetUnixFrac is unix seconds with a fraction, as Discord writes
	// them ("X-RateLimit-Reset: 1470173023.123", discord-api-docs
	// docs/topics/rate-limits.md, "Example Exceeded User Rate Limit
	// Response").
	ResetUnixFrac ResetFormat = "unix-frac"
	ResetDelta    ResetFormat = "delta"
	ResetHTTPDate ResetFormat = "http-date"
)

// ResetFormats lists the values RESET_FORMAT takes.
func ResetFormats() []ResetFormat {
	return []ResetFormat{ResetUnix, ResetUnixMS, ResetUnixFrac, ResetDelta, ResetHTTPDate, ResetAuto}
}

// ResetFormatChoices is RESET_FORMAT's values for a flag's help: "unix,
// unix-ms, …, http-date or auto".
func ResetFormatChoices() string { return choices(ResetFormats()) }

// DialectChoices is DIALECT's values for a flag's help.
func DialectChoices() string { return choices(Dialects()) }

// choices is vs as "a, b or c".
func choices[T ~string](vs []T) string {
	s := join(vs)
	if i := strings.LastIndex(s, ", "); i >= 0 {
		s = s[:i] + " or " + s[i+2:]
	}
	return s
}

// WrittenResetFormats are the formats a server writes X-RateLimit-Reset
// in: every value of RESET_FORMAT but auto.
func WrittenResetFormats() []ResetFormat {
	var out []ResetFormat
	for _, f := range ResetFormats() {
		if f.Concrete() {
			out = append(out, f)
		}
	}
	return out
}

// ParseResetFormat reads RESET_FORMAT; "" is ResetUnset.
func ParseResetFormat(s string) (ResetFormat, error) {
	f := ResetFormat(strings.ToLower(strings.TrimSpace(s)))
	if f == ResetUnset {
		return ResetUnset, nil
	}
	for _, k := range ResetFormats() {
		if f == k {
			return f, nil
		}
	}
	return ResetUnset, fmt.Errorf("%q is none of %s", s, join(ResetFormats()))
}

// Describe is the format in words ("delta seconds").
func (f ResetFormat) Describe() string {
	switch f {
	case ResetUnix:
		return "unix seconds"
	case ResetUnixMS:
		return "unix milliseconds"
	case ResetUnixFrac:
		return "unix seconds with a fraction"
	case ResetDelta:
		return "delta seconds"
	case ResetHTTPDate:
		return "an HTTP date"
	}
	return string(f)
}

// DefaultPrefix is HEADER_PREFIX's default.
const DefaultPrefix = "X-RateLimit-"

// ParsePrefix reads HEADER_PREFIX: a header-name prefix ending in '-' (or
// nothing: "" keeps the default).
func ParsePrefix(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	for _, r := range strings.TrimSuffix(s, "-") {
		if !(r == '-' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z') {
			return "", fmt.Errorf("%q is not a header-name prefix (letters, digits and '-', e.g. X-Rate-Limit-)", s)
		}
	}
	if !strings.HasSuffix(s, "-") || len(s) < 2 {
		return "", fmt.Errorf("%q is not a header-name prefix ending in '-' (e.g. X-Rate-Limit-)", s)
	}
	return s, nil
}

func join[T ~string](vs []T) string {
	ss := make([]string, len(vs))
	for i, v := range vs {
		ss[i] = string(v)
	}
	return strings.Join(ss, ", ")
}
