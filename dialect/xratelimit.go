package dialect

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// imfUTC is IMF-fixdate with UTC in place of GMT: read, but a deviation.
const imfUTC = "Mon, 02 Jan 2006 15:04:05 UTC"

// readX reads the x-ratelimit dialect: HEADER_PREFIX + Limit, Remaining
// and Reset (in RESET_FORMAT, auto deciding per value).
func (s Settings) readX(r Response, o *Observation) error {
	names := defaultX[:]
	if p := s.prefix(); p != DefaultPrefix {
		names = []string{p + "Limit", p + "Remaining", p + "Reset"}
	}
	o.Lines = lines(r.Header, names...)
	var errs []error
	for i, dst := range []*int64{&o.Limit, &o.Remaining} {
		if err := intField(r.Header, names[i], dst); err != nil {
			errs = append(errs, err)
			continue
		}
		o.Present |= []Field{FieldLimit, FieldRemaining}[i]
	}
	v, err := one(r.Header, names[2])
	if err == nil {
		o.Reset, o.ResetFormat, o.Deviation, err = ReadReset(names[2], v, s.ResetFormat, r.Received)
	}
	if err != nil {
		errs = append(errs, err)
	} else {
		o.Present |= FieldReset
	}
	return first(errs...)
}

// ReadReset reads one X-RateLimit-Reset value (field name) in format f,
// delta counted from received. Under auto (or unset) the value decides: an
// HTTP date, a fraction of at least 10^9 unix-frac, else below 10^9 delta,
// below 10^12 unix, else unix-ms; the
// format used is returned. A value of another form than an explicit f is
// read as f and named in deviation; one that f cannot read is an error.
func ReadReset(name, v string, f ResetFormat, received time.Time) (at time.Time, used ResetFormat, deviation string, err error) {
	raw := v
	v = strings.TrimSpace(v)
	form, date, dateDev := classify(v)
	if form == ResetUnset && f.Concrete() {
		return time.Time{}, f, "", fmt.Errorf("%s: %q is not %s (RESET_FORMAT=%s)", name, raw, f.Describe(), f)
	}
	if form == ResetUnset {
		return time.Time{}, f, "", fmt.Errorf("%s: %q is none of unix seconds, unix milliseconds, unix seconds with a fraction, delta seconds or an HTTP date", name, raw)
	}
	if f == ResetAuto || f == ResetUnset {
		f = form
	} else if form != f && (f != ResetUnixFrac || form != ResetUnix) { // whole seconds are seconds with no fraction
		deviation = fmt.Sprintf("%s: %q reads as %s, not %s (RESET_FORMAT=%s)", name, raw, form.Describe(), f.Describe(), f)
	}
	if f == ResetUnixFrac && form == ResetUnixFrac {
		return date, f, deviation, nil
	}
	if f == ResetHTTPDate {
		if form != ResetHTTPDate {
			return time.Time{}, f, "", fmt.Errorf("%s: %q is not an HTTP date (RESET_FORMAT=http-date)", name, raw)
		}
		if deviation == "" {
			deviation = dateDev
		}
		return date, f, deviation, nil
	}
	n, err := nonNegative(v)
	if err != nil {
		return time.Time{}, f, "", fmt.Errorf("%s: %q is not an integer (RESET_FORMAT=%s)", name, raw, f)
	}
	switch f {
	case ResetUnix, ResetUnixFrac:
		at = time.Unix(n, 0)
	case ResetUnixMS:
		at = time.UnixMilli(n)
	default:
		if at, err = after(received, n, name); err != nil {
			return time.Time{}, f, "", err
		}
	}
	return at, f, deviation, nil
}

// classify is the form auto reads v in (ResetUnset when none fits), and
// for a date or a fraction the instant and a deviation of its form.
func classify(v string) (ResetFormat, time.Time, string) {
	if secs, frac, ok := strings.Cut(v, "."); ok {
		n, err := nonNegative(secs)
		_, ferr := nonNegative(frac)
		if err == nil && ferr == nil && n >= 1e9 && n < 1e12 && len(frac) <= 9 {
			ns, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
			return ResetUnixFrac, time.Unix(n, ns), ""
		}
		return ResetUnset, time.Time{}, ""
	}
	// A number is never a date: read it first, without trying the dates.
	if n, err := nonNegative(v); err == nil {
		switch {
		case n < 1e9:
			return ResetDelta, time.Time{}, ""
		case n < 1e12:
			return ResetUnix, time.Time{}, ""
		}
		return ResetUnixMS, time.Time{}, ""
	}
	if t, err := time.Parse(http.TimeFormat, v); err == nil {
		return ResetHTTPDate, t, ""
	}
	if t, err := time.Parse(imfUTC, v); err == nil {
		return ResetHTTPDate, t, fmt.Sprintf("%q writes UTC in place of GMT (RFC 9110 IMF-fixdate)", v)
	}
	if t, err := http.ParseTime(v); err == nil {
		return ResetHTTPDate, t, fmt.Sprintf("%q is an obsolete HTTP date form, not IMF-fixdate (RFC 9110)", v)
	}
	return ResetUnset, time.Time{}, ""
}
