package dialect

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Response is what a reader looks at: one HTTP response and when it came
// back (the instant delta formats count from).
type Response struct {
	Status   int
	Header   http.Header
	Body     []byte
	Received time.Time
}

// Field is one piece of a rate-limit answer.
type Field uint8

// The fields an Observation may hold.
const (
	FieldLimit Field = 1 << iota
	FieldRemaining
	FieldReset
	FieldRetryAfter
	FieldPolicy // a policy naming the window (RateLimit-Policy's w)
)

// Observation is what one response says about the quota, read in one
// dialect. Err is the quota fields' error (missing or malformed; nil under
// status), RetryAfterErr Retry-After's, BodyErr the refusal body's: three
// separate verdicts.
type Observation struct {
	Dialect Dialect
	// ResetFormat is the format X-RateLimit-Reset was read in (auto's
	// choice for this value); the drafts' delta seconds otherwise.
	ResetFormat ResetFormat
	Limit       int64
	Remaining   int64
	Reset       time.Time // the instant the quota is restored
	Window      time.Duration
	RetryAfter  time.Duration
	Present     Field
	Refused     bool // the status is LIMITED_STATUS
	// Lines are the raw header lines read ("X-RateLimit-Reset: 1").
	Lines []string
	// Deviation names a value read although its form deviates from the
	// dialect (an HTTP date in UTC in place of GMT).
	Deviation     string
	Err           error
	RetryAfterErr error
	BodyErr       error
}

// Has reports whether f was present.
func (o Observation) Has(f Field) bool { return o.Present&f != 0 }

// Evidence is the raw lines, one per line.
func (o Observation) Evidence() string { return strings.Join(o.Lines, "\n") }

// Read reads r in s's dialect, Retry-After on its own, and on a refusal
// its body. Under Auto or Unset it reads r in the dialect r itself is
// detected to speak, and in x-ratelimit when r carries no fields at all:
// status is a setting (or Detect's decision on a first response), never
// an excuse one response gives itself.
func (s Settings) Read(r Response) Observation {
	d := s.Dialect
	if !d.Concrete() {
		if d = s.Detect(r).Settings.Dialect; d == Status {
			d = XRateLimit
		}
	}
	o := Observation{Dialect: d, ResetFormat: ResetDelta, Refused: s.Refused(r.Status)}
	switch d {
	case XRateLimit:
		o.Err = s.readX(r, &o)
	case Fields:
		o.Err = readFields(r, &o)
	case Dict:
		o.Err = readDict(r, &o)
	case IETF:
		o.Err = readIETF(r, &o)
	}
	if d != XRateLimit {
		o.ResetFormat = ResetDelta
	}
	ra, ok, err := RetryAfter(r.Header, r.Received)
	if ok {
		o.Present |= FieldRetryAfter
		o.RetryAfter = ra
		o.Lines = append(o.Lines, line(r.Header, HeaderRetryAfter))
	}
	o.RetryAfterErr = err
	if o.Refused {
		o.BodyErr = s.Body.Check(r.Body)
	}
	return o
}

// HeaderRetryAfter is RFC 9110's Retry-After.
const HeaderRetryAfter = "Retry-After"

// RetryAfter reads Retry-After as RFC 9110 defines it, on its own:
// delay-seconds or an HTTP-date (IMF-fixdate, or the obsolete forms
// http.ParseTime reads), the date counted from received and never below
// 0. ok is false when the field is absent; a malformed one is an error.
func RetryAfter(h http.Header, received time.Time) (d time.Duration, ok bool, err error) {
	vs := values(h, HeaderRetryAfter)
	switch {
	case len(vs) == 0:
		return 0, false, nil
	case len(vs) > 1:
		return 0, true, fmt.Errorf("%s appears more than once (%q)", HeaderRetryAfter, strings.Join(vs, ", "))
	}
	v := strings.TrimSpace(vs[0])
	if n, err := nonNegative(v); err == nil {
		if n > math.MaxInt64/int64(time.Second) {
			return 0, true, fmt.Errorf("%s: %q is out of range", HeaderRetryAfter, vs[0])
		}
		return time.Duration(n) * time.Second, true, nil
	}
	t, err := http.ParseTime(v)
	if err != nil {
		return 0, true, fmt.Errorf("%s: %q is neither delay-seconds nor an HTTP-date (RFC 9110)", HeaderRetryAfter, vs[0])
	}
	return max(t.Sub(received), 0), true, nil
}

// Seconds is d in whole seconds, rounded up (a Retry-After date counted
// from the receive time lies a fraction of a second short).
func Seconds(d time.Duration) int64 { return int64(math.Ceil(d.Seconds())) }

// nonNegative reads a non-negative decimal integer, nothing else.
func nonNegative(s string) (int64, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("%q is not a non-negative integer", s)
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is out of range", s)
	}
	return n, nil
}

// one is the single value of field name; missing or repeated is an error.
func one(h http.Header, name string) (string, error) {
	vs := values(h, name)
	switch {
	case len(vs) == 0:
		return "", fmt.Errorf("%s is missing", name)
	case len(vs) > 1:
		return "", fmt.Errorf("%s appears more than once (%q)", name, strings.Join(vs, ", "))
	}
	return vs[0], nil
}

// intField reads field name as a non-negative integer into dst.
func intField(h http.Header, name string, dst *int64) error {
	v, err := one(h, name)
	if err != nil {
		return err
	}
	n, err := nonNegative(strings.TrimSpace(v))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	*dst = n
	return nil
}

// line is the raw header line of name ("Name: v1, v2"), the name spelled
// as the dialect spells it (Go's http.Header has lost the sender's case).
func line(h http.Header, name string) string { return lineOf(name, values(h, name)) }

// lineOf is the raw header line of name holding vs.
func lineOf(name string, vs []string) string {
	v := strings.Join(vs, ", ")
	if strings.IndexFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
		v = strconv.Quote(v) // a control character never breaks a sentence's line
	}
	return name + ": " + v
}

// lines are the raw lines of the names present in h.
func lines(h http.Header, names ...string) []string {
	ls := make([]string, 0, len(names)+1) // room for Retry-After's
	for _, n := range names {
		if vs := values(h, n); len(vs) > 0 {
			ls = append(ls, lineOf(n, vs))
		}
	}
	return ls
}

// canonical maps the field names the readers know to their keys in an
// http.Header: Header.Values canonicalises its argument on every call, an
// allocation per name and response, which was most of the race hunter's
// time reading a long history (BenchmarkRead). Read-only after init.
var canonical = func() map[string]string {
	m := map[string]string{}
	for _, n := range append(defaultX[:], FieldsLimit, FieldsRemaining, FieldsReset, LimitField, PolicyField, HeaderRetryAfter) {
		m[n] = http.CanonicalHeaderKey(n)
	}
	return m
}()

// defaultX are the x-ratelimit field names under DefaultPrefix.
var defaultX = [3]string{HeaderLimit, HeaderRemaining, HeaderReset}

// values is h.Values(name), without canonicalising a name the readers
// know.
func values(h http.Header, name string) []string {
	if k, ok := canonical[name]; ok {
		return h[k]
	}
	return h.Values(name)
}

// after is received plus secs seconds, or an error when that overflows.
func after(received time.Time, secs int64, name string) (time.Time, error) {
	if secs > math.MaxInt64/int64(time.Second) {
		return time.Time{}, fmt.Errorf("%s: %d seconds is out of range", name, secs)
	}
	return received.Add(time.Duration(secs) * time.Second), nil
}
