package service

import (
	"net/http"
	"time"

	"github.com/rlspec/rlspec/dialect"
)

// ParseIETF reads a response in the ietf dialect
// (draft-ietf-httpapi-ratelimit-headers-11): Limit is the policy's q,
// Remaining RateLimit's r and Reset the unix second t points at from
// received; Retry-After as ParseRateLimit reads it. An absent or invalid
// field is a *HeaderError naming it.
func ParseIETF(h http.Header, received time.Time) (RateLimit, error) {
	f, err := dialect.ReadIETF(h)
	if err != nil {
		return RateLimit{RetryAfter: -1}, &HeaderError{Header: dialect.LimitField + ", " + dialect.PolicyField, Value: h.Get(dialect.LimitField), Reason: err.Error()}
	}
	return withRetryAfter(h, RateLimit{Limit: f.Policy.Quota, Remaining: f.Limit.Remaining, Reset: f.Reset(received), RetryAfter: -1})
}

// AnswersIETF reports whether the target is to answer in the IETF fields:
// DIALECT=ietf or feature ietf-headers claimed (an embedded reference then
// adds them beside X-RateLimit-*).
func (c Config) AnswersIETF() bool {
	return c.Dialect == DialectIETF || c.Claims(FeatureIETFHeaders)
}
