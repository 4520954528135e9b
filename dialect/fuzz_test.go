package dialect

import (
	"net/http"
	"strings"
	"testing"
)

// Every reader, on any header values and body, returns an observation with
// sentences for errors and never panics (issue 24 item 16).
func FuzzRead(f *testing.F) {
	f.Add("5", "4", "1", "3", `"default";q=5;w=3`, `"default";r=4;t=1`, "/error=a", []byte(`{"error":"a"}`))
	f.Add("5", "4", "Wed, 25 Nov 2026 12:00:00 UTC", "Wed, 25 Nov 2026 12:00:00 GMT", "5;w=3", "limit=5, remaining=4, reset=1", "text:(?i)too many", []byte("Too many"))
	f.Add("10, 10;w=1", "-1", "1795000000123", "", `("a");q=1`, `limit=x`, "none", []byte{})
	f.Fuzz(func(t *testing.T, limit, remaining, reset, retry, policy, rl, body string, payload []byte) {
		h := http.Header{}
		for k, v := range map[string]string{"X-RateLimit-Limit": limit, "X-RateLimit-Remaining": remaining, "X-RateLimit-Reset": reset,
			"RateLimit-Limit": limit, "RateLimit-Remaining": remaining, "RateLimit-Reset": reset,
			"Retry-After": retry, PolicyField: policy, LimitField: rl} {
			if v != "" {
				h.Set(k, v)
			}
		}
		b, err := ParseBody(body)
		if err != nil {
			if !sentence(err.Error()) {
				t.Fatalf("ParseBody(%q): %q", body, err)
			}
			b = Body{}
		}
		r := Response{Status: 429, Header: h, Body: payload, Received: now}
		for _, d := range append(Dialects(), Unset) {
			for _, rf := range ResetFormats() {
				s := Settings{Dialect: d, ResetFormat: rf, Body: b}
				o := s.Read(r)
				for _, err := range []error{o.Err, o.RetryAfterErr, o.BodyErr, s.Contradiction(r)} {
					if err != nil && !sentence(err.Error()) {
						t.Fatalf("%s/%s: %q", d, rf, err)
					}
				}
				for _, msg := range []string{o.Deviation, o.Evidence(), s.Detect(r).Sentence("the first response")} {
					if strings.ContainsAny(msg, "\r") || strings.Contains(msg, "\n") && msg != o.Evidence() {
						t.Fatalf("%s/%s: a message breaks its line: %q", d, rf, msg)
					}
				}
			}
		}
	})
}

// RetryAfter and ReadReset on any one value.
func FuzzRetryAfterAndReset(f *testing.F) {
	for _, s := range []string{"3", "Wed, 21 Oct 2015 07:28:00 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "-1", "1e3", "99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		d, ok, err := RetryAfter(http.Header{"Retry-After": {v}}, now)
		if !ok || err != nil && !sentence(err.Error()) || d < 0 {
			t.Fatalf("%q: %s %v %v", v, d, ok, err)
		}
		for _, f := range ResetFormats() {
			if _, _, _, err := ReadReset("X-RateLimit-Reset", v, f, now); err != nil && !sentence(err.Error()) {
				t.Fatalf("%q as %s: %v", v, f, err)
			}
		}
	})
}
