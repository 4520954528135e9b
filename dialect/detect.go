package dialect

import (
	"fmt"
	"strings"
)

// altPrefix is the other x-ratelimit prefix auto looks for.
const altPrefix = "X-Rate-Limit-"

// Detection is what auto decided from a response, and why.
type Detection struct {
	// Settings are the settings detected from, with Dialect (and for
	// x-ratelimit Prefix and ResetFormat) resolved where they were auto.
	Settings Settings
	// Line is the raw header line that decided ("" when none did).
	Line string
	// Detected reports whether anything was left to detect.
	Detected bool
}

// Detect resolves what s leaves to auto from r: the dialect whose fields r
// carries (x-ratelimit, with the prefix found; else ratelimit-fields; else
// the RateLimit field as ietf's List or ratelimit-dict's Dictionary; else
// status) and, for x-ratelimit, the format of its Reset. Concrete settings
// are kept as they are.
func (s Settings) Detect(r Response) Detection {
	d := Detection{Settings: s}
	h := r.Header
	if !s.Dialect.Concrete() {
		d.Detected = true
		d.Settings.Dialect, d.Line = Status, ""
		prefixes := []string{DefaultPrefix, altPrefix}
		if s.Prefix != "" {
			prefixes = []string{s.Prefix}
		}
		var found bool
		for _, p := range prefixes {
			if ls := lines(h, p+"Reset", p+"Limit", p+"Remaining"); len(ls) > 0 {
				d.Settings.Dialect, d.Line, found = XRateLimit, ls[0], true
				if p != DefaultPrefix {
					d.Settings.Prefix = p
				}
				break
			}
		}
		switch {
		case found:
		case len(lines(h, FieldsLimit, FieldsRemaining, FieldsReset)) > 0:
			d.Settings.Dialect, d.Line = Fields, lines(h, FieldsReset, FieldsLimit, FieldsRemaining)[0]
		case len(values(h, LimitField)) > 0:
			d.Settings.Dialect, d.Line = IETF, line(h, LimitField)
			if v := strings.Join(values(h, LimitField), ", "); strings.Contains(v, "limit=") || strings.Contains(v, "remaining=") {
				d.Settings.Dialect = Dict
			}
		case len(values(h, PolicyField)) > 0:
			d.Settings.Dialect, d.Line = IETF, line(h, PolicyField)
		}
	}
	if d.Settings.Dialect == XRateLimit && (s.ResetFormat == ResetAuto || s.ResetFormat == ResetUnset) {
		name := d.Settings.prefix() + "Reset"
		if vs := values(h, name); len(vs) == 1 {
			if f, _, _ := classify(strings.TrimSpace(vs[0])); f != ResetUnset {
				d.Settings.ResetFormat, d.Line, d.Detected = f, line(h, name), true
			}
		}
	}
	return d
}

// Sentence says what the settings are and, where auto decided, from what:
// "dialect: x-ratelimit, Reset as delta seconds — detected from
// `X-RateLimit-Reset: 1` on the first response".
func (d Detection) Sentence(where string) string {
	s := d.Settings
	var b strings.Builder
	fmt.Fprintf(&b, "dialect: %s", s.Dialect)
	if s.Dialect == XRateLimit {
		if s.Prefix != "" && s.Prefix != DefaultPrefix {
			fmt.Fprintf(&b, " (prefix %s)", s.Prefix)
		}
		if s.ResetFormat.Concrete() {
			fmt.Fprintf(&b, ", Reset as %s", s.ResetFormat.Describe())
		}
	}
	switch {
	case !d.Detected:
		b.WriteString(" — as configured")
	case d.Line != "":
		fmt.Fprintf(&b, " — detected from `%s` on %s", d.Line, where)
	default:
		fmt.Fprintf(&b, " — detected: %s carried none of X-RateLimit-*, RateLimit-*, RateLimit, RateLimit-Policy", where)
	}
	return b.String()
}

// Concrete reports whether f names one format (neither unset nor auto).
func (f ResetFormat) Concrete() bool { return f != ResetUnset && f != ResetAuto }

// Contradiction is one sentence when r, the first answer of a fresh key,
// contradicts a setting s states explicitly (a concrete dialect whose
// fields r lacks, a RESET_FORMAT r's Reset is not written in), else nil.
// Under status nothing is contradicted.
func (s Settings) Contradiction(r Response) error {
	auto := Settings{Prefix: s.Prefix}.Detect(r)
	if auto.Settings.Dialect == Status && s.Prefix != "" {
		auto = Settings{}.Detect(r)
	}
	seen := auto.Settings.Dialect
	if s.Dialect.Concrete() && s.Dialect != Status || s.Prefix != "" {
		if o := s.Read(r); o.Present&(FieldLimit|FieldRemaining|FieldReset) == 0 {
			if s.Prefix != "" && seen == XRateLimit {
				return fmt.Errorf("HEADER_PREFIX=%s but the first response of a fresh key carries `%s`: set HEADER_PREFIX=%s (or unset it)", s.Prefix, auto.Line, auto.Settings.prefix())
			}
			if seen == Status {
				return fmt.Errorf("DIALECT=%s but the first response of a fresh key carries no rate-limit fields: set DIALECT=status (or auto)", s.Dialect)
			}
			return fmt.Errorf("DIALECT=%s but the first response of a fresh key answers in %s (`%s`): set DIALECT=%s (or auto)", s.Dialect, seen, auto.Line, seen)
		}
	}
	if s.ResetFormat.Concrete() && (s.Dialect == XRateLimit || !s.Dialect.Concrete() && seen == XRateLimit) {
		name := s.prefix() + "Reset"
		if vs := values(r.Header, name); len(vs) == 1 {
			if f, _, _ := classify(strings.TrimSpace(vs[0])); f != ResetUnset && f != s.ResetFormat {
				return fmt.Errorf("RESET_FORMAT=%s but the first response of a fresh key carries `%s`, which reads as %s: set RESET_FORMAT=%s (or auto)", s.ResetFormat, line(r.Header, name), f.Describe(), f)
			}
		}
	}
	return nil
}

// FieldName names where s's dialect carries f ("X-RateLimit-Limit",
// "RateLimit-Policy q"), for messages.
func (s Settings) FieldName(f Field) string {
	i := map[Field]int{FieldLimit: 0, FieldRemaining: 1, FieldReset: 2}[f]
	switch s.Dialect {
	case Fields:
		return []string{FieldsLimit, FieldsRemaining, FieldsReset}[i]
	case Dict:
		return LimitField + " " + []string{"limit", "remaining", "reset"}[i]
	case IETF:
		return []string{PolicyField + " q", LimitField + " r", LimitField + " t"}[i]
	}
	return s.prefix() + []string{"Limit", "Remaining", "Reset"}[i]
}
