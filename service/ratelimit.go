package service

import (
	"errors"
	"net/http"
	"time"

	"github.com/rlspec/rlspec/dialect"
)

// Header names of the PRD (FR-7) and of RFC 9110 Retry-After.
const (
	HeaderLimit      = "X-RateLimit-Limit"
	HeaderRemaining  = "X-RateLimit-Remaining"
	HeaderReset      = "X-RateLimit-Reset"
	HeaderRetryAfter = dialect.HeaderRetryAfter
	HeaderIdemKey    = "Idempotency-Key"
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
func RateLimitOf(o dialect.Observation) (RateLimit, error) {
	rl := RateLimit{Limit: o.Limit, Remaining: o.Remaining, Reset: -1, RetryAfter: -1}
	if o.Has(dialect.FieldReset) {
		rl.Reset = o.Reset.Unix()
	}
	if o.Has(dialect.FieldRetryAfter) && o.RetryAfterErr == nil {
		rl.RetryAfter = dialect.Seconds(o.RetryAfter)
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
var prdAnswer = dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetUnix}

// ParseRateLimit reads the PRD's three X-RateLimit headers (all required,
// Reset in unix seconds) and Retry-After on its own (RFC 9110); only the
// three are an error.
func ParseRateLimit(h http.Header) (RateLimit, error) {
	return RateLimitOf(prdAnswer.Read(dialect.Response{Header: h, Received: time.Now()}))
}
