package dialect

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
)

// Settings is how a target answers: its dialect (DIALECT), how
// X-RateLimit-Reset is written (RESET_FORMAT), the prefix of the
// x-ratelimit headers (HEADER_PREFIX), the status of a refusal
// (LIMITED_STATUS) and what a refusal's body holds (LIMITED_BODY). The zero
// Settings is "auto, X-RateLimit-, 429, body not checked".
type Settings struct {
	Dialect       Dialect
	ResetFormat   ResetFormat
	Prefix        string // "" = DefaultPrefix
	LimitedStatus int    // 0 = 429
	Body          Body
}

// Validate reports the first bad value as one sentence, naming its
// variable.
func (s Settings) Validate() error {
	if _, err := ParseDialect(string(s.Dialect)); err != nil {
		return fmt.Errorf("DIALECT: %w", err)
	}
	if _, err := ParseResetFormat(string(s.ResetFormat)); err != nil {
		return fmt.Errorf("RESET_FORMAT: %w", err)
	}
	if _, err := ParsePrefix(s.Prefix); err != nil {
		return fmt.Errorf("HEADER_PREFIX: %w", err)
	}
	if s.LimitedStatus != 0 {
		if _, err := ParseLimitedStatus(strconv.Itoa(s.LimitedStatus)); err != nil {
			return fmt.Errorf("LIMITED_STATUS: %w", err)
		}
	}
	if err := s.Body.validate(); err != nil {
		return fmt.Errorf("LIMITED_BODY: %w", err)
	}
	if s.ResetFormat != ResetUnset && s.Dialect.Concrete() && s.Dialect != XRateLimit {
		return fmt.Errorf("RESET_FORMAT=%s applies to DIALECT=x-ratelimit only (%s fixes its reset as delta seconds): unset it", s.ResetFormat, s.Dialect)
	}
	if s.Prefix != "" && s.Dialect.Concrete() && s.Dialect != XRateLimit {
		return fmt.Errorf("HEADER_PREFIX=%s applies to DIALECT=x-ratelimit only: unset it", s.Prefix)
	}
	return nil
}

// prefix is HEADER_PREFIX or its default.
func (s Settings) prefix() string {
	if s.Prefix == "" {
		return DefaultPrefix
	}
	return s.Prefix
}

// Status is the status of a refusal (LIMITED_STATUS, 429 by default).
func (s Settings) Status() int {
	if s.LimitedStatus == 0 {
		return http.StatusTooManyRequests
	}
	return s.LimitedStatus
}

// Refused reports whether status is the refusal's.
func (s Settings) Refused(status int) bool { return status == s.Status() }

// ParseLimitedStatus reads LIMITED_STATUS: a 4xx or 5xx status code.
func ParseLimitedStatus(s string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 400 || n > 599 {
		return 0, fmt.Errorf("%q is not a 4xx or 5xx status code", s)
	}
	return n, nil
}

// BodyKind says how a refusal's body is checked.
type BodyKind string

// The forms of LIMITED_BODY; BodyUnset means "the profile's default".
const (
	BodyUnset BodyKind = ""
	BodyNone  BodyKind = "none"
	BodyJSON  BodyKind = "json"
	BodyText  BodyKind = "text"
)

// Body is LIMITED_BODY: `/json/pointer=value[|value]` (a JSON body holding
// one of the values, a string, at the pointer), `text:<regexp>` (a body the
// regular expression matches) or `none` (not checked).
type Body struct {
	Kind    BodyKind
	Pointer string   // BodyJSON
	Values  []string // BodyJSON
	Pattern string   // BodyText
}

// JSONBody is the Body of a JSON pointer and its values.
func JSONBody(pointer string, values ...string) Body {
	return Body{Kind: BodyJSON, Pointer: pointer, Values: values}
}

func (b Body) String() string {
	switch b.Kind {
	case BodyJSON:
		return b.Pointer + "=" + strings.Join(b.Values, "|")
	case BodyText:
		return "text:" + b.Pattern
	}
	return string(b.Kind)
}

// Checked reports whether a refusal's body is checked at all.
func (b Body) Checked() bool { return b.Kind == BodyJSON || b.Kind == BodyText }

// ParseBody reads LIMITED_BODY; "" is BodyUnset. Values are separated by
// '|' (by ',' when no '|' is given, as dialects.md writes them).
func ParseBody(s string) (Body, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return Body{}, nil
	case s == string(BodyNone):
		return Body{Kind: BodyNone}, nil
	case strings.HasPrefix(s, "text:"):
		b := Body{Kind: BodyText, Pattern: strings.TrimPrefix(s, "text:")}
		return b, b.validate()
	}
	p, v, ok := strings.Cut(s, "=")
	if !ok || !strings.HasPrefix(p, "/") || v == "" {
		return Body{}, fmt.Errorf("%q is none of /json/pointer=value[|value], text:<regexp>, none", s)
	}
	sep := "|"
	if !strings.Contains(v, "|") {
		sep = ","
	}
	return JSONBody(p, strings.Split(v, sep)...), nil
}

func (b Body) validate() error {
	switch b.Kind {
	case BodyUnset, BodyNone:
		return nil
	case BodyText:
		if _, err := regexp.Compile(b.Pattern); err != nil {
			why := err.Error()
			var se *syntax.Error
			if errors.As(err, &se) {
				why = string(se.Code)
			}
			return fmt.Errorf("%q is not a regular expression (%s)", "text:"+b.Pattern, why)
		}
		return nil
	case BodyJSON:
		if !strings.HasPrefix(b.Pointer, "/") || len(b.Values) == 0 {
			return fmt.Errorf("%q is not /json/pointer=value", b.String())
		}
		return nil
	}
	return fmt.Errorf("%q is none of /json/pointer=value[|value], text:<regexp>, none", b.String())
}

// Check reports, as one sentence, how body differs from what b names (nil
// when it matches or b checks nothing).
func (b Body) Check(body []byte) error {
	switch b.Kind {
	case BodyJSON:
		var doc any
		if err := json.Unmarshal(body, &doc); err != nil {
			return fmt.Errorf("the refusal's body is not JSON holding %q: %.80q", b.String(), body)
		}
		got, ok := JSONPointer(doc, b.Pointer)
		if str, isStr := got.(string); !ok || !isStr || !slices.Contains(b.Values, str) {
			return fmt.Errorf("the refusal's body does not hold %q: %.80q", b.String(), body)
		}
	case BodyText:
		re, err := regexp.Compile(b.Pattern)
		if err != nil {
			return fmt.Errorf("LIMITED_BODY %q is not a regular expression", "text:"+b.Pattern)
		}
		if !re.Match(body) {
			return fmt.Errorf("the refusal's body does not match %q: %.80q", "text:"+b.Pattern, body)
		}
	}
	return nil
}

// Match reports whether body is what b names (always for a Body that checks
// nothing).
func (b Body) Match(body []byte) bool { return b.Check(body) == nil }

// JSONPointer resolves a JSON pointer (RFC 6901) in a decoded document.
func JSONPointer(doc any, p string) (any, bool) {
	cur := doc
	for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[tok]; !ok {
			return nil, false
		}
	}
	return cur, true
}
