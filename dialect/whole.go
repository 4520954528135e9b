package dialect

import (
	"errors"
	"net/http"
	"time"
)

// Header names of the PRD (FR-7): x-ratelimit with the default prefix.
const (
	HeaderLimit     = DefaultPrefix + "Limit"
	HeaderRemaining = DefaultPrefix + "Remaining"
	HeaderReset     = DefaultPrefix + "Reset"
)

// RateLimit is one response's rate-limit fields as whole numbers: Reset
// in unix seconds (-1 when the dialect's reset is absent), RetryAfter in
// seconds rounded up (-1 when absent or malformed: read it with
// Exchange.Observe to see why).
type RateLimit struct {
	Limit, Remaining, Reset int64
	RetryAfter              int64
}

// RateLimitOf is o as whole numbers; o's quota error, or its format
// deviation, is the error.
func RateLimitOf(o Observation) (RateLimit, error) {
	rl := RateLimit{Limit: o.Limit, Remaining: o.Remaining, Reset: -1, RetryAfter: -1}
	if o.Has(FieldReset) {
		rl.Reset = o.Reset.Unix()
	}
	if o.Has(FieldRetryAfter) && o.RetryAfterErr == nil {
		rl.RetryAfter = Seconds(o.RetryAfter)
	}
	switch {
	case o.Err != nil:
		return rl, o.Err
	case o.Deviation != "":
		return rl, errors.New(o.Deviation)
	}
	return rl, nil
}

// prdAnswer is how the PRD answers (FR-7): X-RateLimit-* with Reset in
// unix seconds.
var prdAnswer = Settings{Dialect: XRateLimit, ResetFormat: ResetUnix}

// ParseRateLimit reads the PRD's three X-RateLimit headers (all required,
// Reset in unix seconds) and Retry-After on its own (RFC 9110); only the
// three are an error.
func ParseRateLimit(h http.Header) (RateLimit, error) {
	return RateLimitOf(prdAnswer.Read(Response{Header: h, Received: time.Now()}))
}
