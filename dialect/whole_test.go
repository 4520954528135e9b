package dialect

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestParseRateLimit(t *testing.T) {
	rl, err := ParseRateLimit(hdr(HeaderLimit, "500", HeaderRemaining, "499", HeaderReset, "1767225600"))
	if err != nil || rl != (RateLimit{500, 499, 1767225600, -1}) {
		t.Fatalf("got %+v, %v", rl, err)
	}
	rl, err = ParseRateLimit(hdr(HeaderLimit, "5", HeaderRemaining, "0", HeaderReset, "1767225600", HeaderRetryAfter, " 7 "))
	if err != nil || rl.RetryAfter != 7 {
		t.Fatalf("got %+v, %v", rl, err)
	}
	// Retry-After is RFC 9110's: an HTTP-date is valid too.
	rl, err = ParseRateLimit(hdr(HeaderLimit, "5", HeaderRemaining, "0", HeaderReset, "1767225600", HeaderRetryAfter, time.Now().Add(time.Hour).UTC().Format(http.TimeFormat)))
	if err != nil || rl.RetryAfter < 3598 || rl.RetryAfter > 3600 {
		t.Fatalf("date: got %+v, %v", rl, err)
	}
}

func TestParseRateLimitRejectsGarbage(t *testing.T) {
	for name, h := range map[string]http.Header{
		"missing limit":  hdr(HeaderRemaining, "1", HeaderReset, "1767225600"),
		"negative":       hdr(HeaderLimit, "5", HeaderRemaining, "-1", HeaderReset, "1767225600"),
		"float":          hdr(HeaderLimit, "5", HeaderRemaining, "1.5", HeaderReset, "1767225600"),
		"word":           hdr(HeaderLimit, "five", HeaderRemaining, "1", HeaderReset, "1767225600"),
		"empty":          hdr(HeaderLimit, "", HeaderRemaining, "1", HeaderReset, "1767225600"),
		"twice":          hdr(HeaderLimit, "5", HeaderLimit, "6", HeaderRemaining, "1", HeaderReset, "1767225600"),
		"overflow":       hdr(HeaderLimit, "5", HeaderRemaining, "1", HeaderReset, "99999999999999999999"),
		"plus sign":      hdr(HeaderLimit, "+5", HeaderRemaining, "1", HeaderReset, "1767225600"),
		"iso reset time": hdr(HeaderLimit, "5", HeaderRemaining, "1", HeaderReset, "2026-01-01T00:00:00Z"),
		"delta reset":    hdr(HeaderLimit, "5", HeaderRemaining, "1", HeaderReset, "1"), // FR-7 fixes unix seconds
	} {
		t.Run(name, func(t *testing.T) {
			_, err := ParseRateLimit(h)
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one sentence", err)
			}
		})
	}
}
