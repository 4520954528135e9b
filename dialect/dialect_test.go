package dialect

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// Every dialect and RESET_FORMAT a server writes reads back as the same
// quota, both when named and when auto detects it.
func TestWriteReadEveryDialect(t *testing.T) {
	q := Quota{Limit: 5, Remaining: 3, Reset: now.Add(3 * time.Second), Window: 3 * time.Second, Now: now}
	var cases []Settings
	for _, f := range WrittenResetFormats() {
		cases = append(cases, Settings{Dialect: XRateLimit, ResetFormat: f}, Settings{Dialect: XRateLimit, ResetFormat: f, Prefix: "X-Rate-Limit-"})
	}
	cases = append(cases, Settings{Dialect: Fields}, Settings{Dialect: Dict}, Settings{Dialect: IETF})
	for _, s := range cases {
		h := http.Header{}
		if err := s.Write(h, q); err != nil {
			t.Fatalf("%+v: write: %v", s, err)
		}
		r := Response{Status: 200, Header: h, Received: now.Add(100 * time.Millisecond)}
		for _, read := range []Settings{s, {Prefix: s.Prefix}} {
			o := read.Read(r)
			if o.Err != nil || o.Dialect != s.Dialect || o.Limit != 5 || o.Remaining != 3 || o.Deviation != "" {
				t.Fatalf("%+v read as %+v: %+v", s, read, o)
			}
			if got := o.Reset.Sub(q.Reset); got < 0 || got > time.Second {
				t.Errorf("%+v read as %+v: Reset %s, want %s", s, read, o.Reset, q.Reset)
			}
			if s.Dialect == XRateLimit && o.ResetFormat != s.ResetFormat {
				t.Errorf("%+v: read Reset as %s", s, o.ResetFormat)
			}
			if s.Dialect != XRateLimit && o.Window != 3*time.Second {
				t.Errorf("%+v: window %s", s, o.Window)
			}
		}
		d := Settings{Prefix: s.Prefix}.Detect(r)
		if d.Settings.Dialect != s.Dialect || d.Line == "" || !d.Detected {
			t.Errorf("%+v: detected %+v", s, d)
		}
		if err := s.Contradiction(r); err != nil {
			t.Errorf("%+v contradicts its own answer: %v", s, err)
		}
	}
}

// The detection sentence names the dialect, the Reset format and the line.
func TestDetectionSentence(t *testing.T) {
	r := Response{Status: 200, Header: http.Header{"X-Ratelimit-Limit": {"5"}, "X-Ratelimit-Remaining": {"4"}, "X-Ratelimit-Reset": {"1"}}, Received: now}
	got := Settings{Dialect: Auto}.Detect(r).Sentence("the first response")
	want := "dialect: x-ratelimit, Reset as delta seconds — detected from `X-RateLimit-Reset: 1` on the first response"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	d := Settings{}.Detect(Response{Status: 200, Header: http.Header{}})
	if d.Settings.Dialect != Status || !strings.Contains(d.Sentence("the first response"), "carried none of") {
		t.Errorf("no fields: %+v %s", d, d.Sentence("x"))
	}
	if s := (Detection{Settings: Settings{Dialect: IETF}}).Sentence("x"); s != "dialect: ietf — as configured" {
		t.Errorf("configured: %s", s)
	}
}

// auto decides per value; an explicit format reads another form as itself
// and names the deviation; a date in UTC is read but a deviation.
func TestResetFormats(t *testing.T) {
	for _, c := range []struct {
		v    string
		f    ResetFormat
		want ResetFormat
		at   time.Time
		dev  bool
	}{
		{"3", ResetAuto, ResetDelta, now.Add(3 * time.Second), false},
		{"1795000000", ResetAuto, ResetUnix, time.Unix(1795000000, 0), false},
		{"1795000000123", ResetAuto, ResetUnixMS, time.UnixMilli(1795000000123), false},
		{"1795000000.123", ResetAuto, ResetUnixFrac, time.UnixMilli(1795000000123), false},
		{"1795000000.5", ResetUnixFrac, ResetUnixFrac, time.UnixMilli(1795000000500), false},
		{"1795000000", ResetUnixFrac, ResetUnixFrac, time.Unix(1795000000, 0), false},
		{now.Format(http.TimeFormat), ResetAuto, ResetHTTPDate, now, false},
		{"Wed, 25 Nov 2026 12:00:00 UTC", ResetAuto, ResetHTTPDate, now, true},
		{"3", ResetUnix, ResetUnix, time.Unix(3, 0), true},
		{"1795000000", ResetDelta, ResetDelta, now.Add(1795000000 * time.Second), true},
	} {
		at, used, dev, err := ReadReset("X-RateLimit-Reset", c.v, c.f, now)
		if err != nil || used != c.want || !at.Equal(c.at) || (dev != "") != c.dev {
			t.Errorf("%q as %s: %s %s %q %v", c.v, c.f, at, used, dev, err)
		}
	}
	for _, c := range []struct {
		v string
		f ResetFormat
	}{{"soon", ResetAuto}, {"-1", ResetAuto}, {"1.5", ResetUnix}, {"1795000000.123", ResetUnix}, {"1.5", ResetAuto}, {"1795000000.", ResetUnixFrac}, {"3", ResetHTTPDate}, {now.Format(http.TimeFormat), ResetUnix}, {"99999999999999999999", ResetAuto}} {
		if _, _, _, err := ReadReset("X-RateLimit-Reset", c.v, c.f, now); err == nil || !sentence(err.Error()) {
			t.Errorf("%q as %s: %v", c.v, c.f, err)
		}
	}
}

// Retry-After is RFC 9110's on its own: delay-seconds or an HTTP-date,
// whatever the other fields say (issue 24, false verdict 2).
func TestRetryAfterOnItsOwn(t *testing.T) {
	h := http.Header{"Retry-After": {"3"}}
	o := Settings{Dialect: XRateLimit}.Read(Response{Status: 429, Header: h, Received: now})
	if o.Err == nil || o.RetryAfterErr != nil || !o.Has(FieldRetryAfter) || o.RetryAfter != 3*time.Second {
		t.Errorf("Retry-After: 3 without X-RateLimit-*: %+v", o)
	}
	h = http.Header{"Retry-After": {now.Add(2 * time.Second).Format(http.TimeFormat)}}
	if d, ok, err := RetryAfter(h, now.Add(300*time.Millisecond)); !ok || err != nil || Seconds(d) != 2 {
		t.Errorf("date: %s %v %v", d, ok, err)
	}
	for _, v := range []string{"-1", "1.5", "soon", ""} {
		if _, ok, err := RetryAfter(http.Header{"Retry-After": {v}}, now); !ok || err == nil || !sentence(err.Error()) {
			t.Errorf("%q: %v %v", v, ok, err)
		}
	}
	if _, ok, err := RetryAfter(http.Header{}, now); ok || err != nil {
		t.Errorf("absent: %v %v", ok, err)
	}
}

// LIMITED_BODY's three forms and LIMITED_STATUS.
func TestLimitedBodyAndStatus(t *testing.T) {
	for s, c := range map[string]struct {
		body string
		ok   bool
	}{
		"/error/code=RATE_LIMITED":      {`{"error":{"code":"RATE_LIMITED"}}`, true},
		"/error=a|rate_limited":         {`{"error":"rate_limited"}`, true},
		"/error=a,b":                    {`{"error":"c"}`, false},
		"text:(?i)too many requests":    {"Too Many Requests\n", true},
		"text:^slow down$":              {"Too Many Requests", false},
		"none":                          {"", true},
		"/error/code=RATE_LIMITED|Rate": {"not json", false},
	} {
		b, err := ParseBody(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		if err := b.Check([]byte(c.body)); (err == nil) != c.ok || err != nil && !sentence(err.Error()) {
			t.Errorf("%s on %q: %v", s, c.body, err)
		}
		if b.String() != s && s != "/error=a,b" {
			t.Errorf("%s prints as %s", s, b)
		}
	}
	for _, s := range []string{"error=x", "/error", "text:(", "json"} {
		if _, err := ParseBody(s); err == nil || !sentence(err.Error()) {
			t.Errorf("%q: %v", s, err)
		}
	}
	st := Settings{LimitedStatus: 503, Body: Body{Kind: BodyText, Pattern: "busy"}}
	o := st.Read(Response{Status: 503, Header: http.Header{}, Body: []byte("server busy")})
	if !o.Refused || o.BodyErr != nil || st.Refused(429) {
		t.Errorf("503: %+v", o)
	}
}

// A bad setting is one sentence naming its variable.
func TestSettingsValidate(t *testing.T) {
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Dialect: "x-ratelimits"}, "DIALECT"},
		{Settings{ResetFormat: "seconds"}, "RESET_FORMAT"},
		{Settings{Prefix: "X RateLimit"}, "HEADER_PREFIX"},
		{Settings{LimitedStatus: 200}, "LIMITED_STATUS"},
		{Settings{Body: Body{Kind: BodyText, Pattern: "("}}, "LIMITED_BODY"},
		{Settings{Dialect: IETF, ResetFormat: ResetUnix}, "RESET_FORMAT=unix applies"},
		{Settings{Dialect: Dict, Prefix: "X-Rate-Limit-"}, "HEADER_PREFIX=X-Rate-Limit- applies"},
	} {
		err := c.s.Validate()
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !sentence(err.Error()) {
			t.Errorf("%+v: %v", c.s, err)
		}
	}
	if err := (Settings{Dialect: XRateLimit, ResetFormat: ResetDelta, Prefix: "X-Rate-Limit-", LimitedStatus: 503, Body: Body{Kind: BodyNone}}).Validate(); err != nil {
		t.Error(err)
	}
	for _, s := range []string{"auto", "x-ratelimit", "ratelimit-fields", "ratelimit-dict", "ietf", "status", ""} {
		if _, err := ParseDialect(s); err != nil {
			t.Error(err)
		}
	}
}

// An explicit setting the first answer contradicts is one sentence.
func TestContradiction(t *testing.T) {
	x := http.Header{"X-Ratelimit-Limit": {"5"}, "X-Ratelimit-Remaining": {"4"}, "X-Ratelimit-Reset": {"1"}}
	r := Response{Status: 200, Header: x, Received: now}
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{Dialect: IETF}, "DIALECT=ietf but the first response of a fresh key answers in x-ratelimit (`X-RateLimit-Reset: 1`): set DIALECT=x-ratelimit (or auto)"},
		{Settings{Dialect: XRateLimit, ResetFormat: ResetUnix}, "RESET_FORMAT=unix but the first response of a fresh key carries `X-RateLimit-Reset: 1`, which reads as delta seconds: set RESET_FORMAT=delta (or auto)"},
		{Settings{ResetFormat: ResetUnixMS}, "RESET_FORMAT=unix-ms but"},
	} {
		if err := c.s.Contradiction(r); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v", c.s, err)
		}
	}
	if err := (Settings{Dialect: Fields}).Contradiction(Response{Status: 200, Header: http.Header{}}); err == nil || !strings.Contains(err.Error(), "DIALECT=status") {
		t.Errorf("no fields: %v", err)
	}
	for _, s := range []Settings{{Dialect: Status}, {Dialect: XRateLimit}, {}, {Dialect: XRateLimit, ResetFormat: ResetDelta}} {
		if err := s.Contradiction(r); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
}

// sentence: one line, no panic text, no trailing period fragments.
func sentence(s string) bool {
	return s != "" && !strings.Contains(s, "\n") && !strings.Contains(s, "panic")
}

// The forms express-rate-limit writes (standardHeaders draft-6, draft-7,
// draft-8; legacyHeaders) read, and auto detects, as the same quota.
func TestExpressRateLimitForms(t *testing.T) {
	for want, h := range map[Dialect]http.Header{
		Fields: {"Ratelimit-Policy": {"100;w=900"}, "Ratelimit-Limit": {"100"}, "Ratelimit-Remaining": {"99"}, "Ratelimit-Reset": {"900"}},
		Dict:   {"Ratelimit-Policy": {"100;w=900"}, "Ratelimit": {"limit=100, remaining=99, reset=900"}},
		IETF:   {"Ratelimit-Policy": {`"100-in-15min"; q=100; w=900; pk=:ZDZmNjg0NDJmNjJk:`}, "Ratelimit": {`"100-in-15min"; r=99; t=900`}},
		XRateLimit: {"X-Ratelimit-Limit": {"100"}, "X-Ratelimit-Remaining": {"99"},
			"X-Ratelimit-Reset": {strconv.FormatInt(now.Add(900*time.Second).Unix(), 10)}},
	} {
		r := Response{Status: 200, Header: h, Received: now}
		o := Settings{}.Read(r)
		if o.Err != nil || o.Dialect != want || o.Limit != 100 || o.Remaining != 99 || !o.Reset.Equal(now.Add(900*time.Second)) {
			t.Errorf("%s: %+v", want, o)
		}
		if want != XRateLimit && o.Window != 900*time.Second {
			t.Errorf("%s: window %s", want, o.Window)
		}
	}
}

// FieldName says where each dialect carries a field.
func TestFieldName(t *testing.T) {
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{}, "X-RateLimit-Limit"}, {Settings{Dialect: XRateLimit, Prefix: "X-Rate-Limit-"}, "X-Rate-Limit-Limit"},
		{Settings{Dialect: Fields}, "RateLimit-Limit"}, {Settings{Dialect: Dict}, "RateLimit limit"}, {Settings{Dialect: IETF}, "RateLimit-Policy q"},
	} {
		if got := c.s.FieldName(FieldLimit); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
	if got := (Settings{Dialect: IETF}).FieldName(FieldReset); got != "RateLimit t" {
		t.Errorf("ietf reset: %q", got)
	}
}
