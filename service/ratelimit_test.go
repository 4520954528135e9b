package service

import (
	"errors"
	"net/http"
	"testing"
)

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

func TestParseRateLimit(t *testing.T) {
	rl, err := ParseRateLimit(hdr(HeaderLimit, "500", HeaderRemaining, "499", HeaderReset, "1767225600"))
	if err != nil || rl != (RateLimit{500, 499, 1767225600, -1}) {
		t.Fatalf("got %+v, %v", rl, err)
	}
	rl, err = ParseRateLimit(hdr(HeaderLimit, "5", HeaderRemaining, "0", HeaderReset, "10", HeaderRetryAfter, " 7 "))
	if err != nil || rl.RetryAfter != 7 {
		t.Fatalf("got %+v, %v", rl, err)
	}
}

func TestParseRateLimitRejectsGarbage(t *testing.T) {
	for name, h := range map[string]http.Header{
		"missing limit":  hdr(HeaderRemaining, "1", HeaderReset, "1"),
		"negative":       hdr(HeaderLimit, "5", HeaderRemaining, "-1", HeaderReset, "1"),
		"float":          hdr(HeaderLimit, "5", HeaderRemaining, "1.5", HeaderReset, "1"),
		"word":           hdr(HeaderLimit, "five", HeaderRemaining, "1", HeaderReset, "1"),
		"empty":          hdr(HeaderLimit, "", HeaderRemaining, "1", HeaderReset, "1"),
		"twice":          hdr(HeaderLimit, "5", HeaderLimit, "6", HeaderRemaining, "1", HeaderReset, "1"),
		"overflow":       hdr(HeaderLimit, "5", HeaderRemaining, "1", HeaderReset, "99999999999999999999"),
		"http date":      hdr(HeaderLimit, "5", HeaderRemaining, "1", HeaderReset, "1", HeaderRetryAfter, "Wed, 21 Oct 2015 07:28:00 GMT"),
		"plus sign":      hdr(HeaderLimit, "+5", HeaderRemaining, "1", HeaderReset, "1"),
		"iso reset time": hdr(HeaderLimit, "5", HeaderRemaining, "1", HeaderReset, "2026-01-01T00:00:00Z"),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseRateLimit(h)
			var he *HeaderError
			if !errors.As(err, &he) {
				t.Fatalf("err = %v, want *HeaderError", err)
			}
			if he.Error() == "" {
				t.Fatal("empty message")
			}
		})
	}
}

func FuzzParseRateLimit(f *testing.F) {
	for _, s := range [][4]string{{"500", "499", "1767225600", ""}, {"1", "0", "0", "3"}, {"-1", "x", "", "1.5"}, {"", "", "", "Wed, 21 Oct 2015"}} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, limit, remaining, reset, retry string) {
		h := http.Header{}
		h.Set(HeaderLimit, limit)
		h.Set(HeaderRemaining, remaining)
		h.Set(HeaderReset, reset)
		if retry != "" {
			h.Set(HeaderRetryAfter, retry)
		}
		rl, err := ParseRateLimit(h)
		if err != nil {
			var he *HeaderError
			if !errors.As(err, &he) {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		if rl.Limit < 0 || rl.Remaining < 0 || rl.Reset < 0 || rl.RetryAfter < -1 {
			t.Fatalf("accepted a negative value: %+v", rl)
		}
	})
}
