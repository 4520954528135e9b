package reference

import (
	"strconv"
	"time"
)

// Outcome is what a decision did.
type Outcome int

// Outcomes of Decide.
const (
	// Allowed: the model allowed the request (spending a unit unless the
	// flag is off), the ride was ingested and, with an Idempotency-Key, the
	// response recorded.
	Allowed Outcome = iota + 1
	// Limited: the model refused; nothing changed (HTTP 429).
	Limited
	// Replayed: an identical (key, body) was seen; the stored response is
	// returned and nothing is spent.
	Replayed
	// KeyReused: the Idempotency-Key was seen with a different body; nothing
	// changed (HTTP 422, error idempotency_key_reused).
	KeyReused
)

func (o Outcome) String() string {
	switch o {
	case Allowed:
		return "allowed"
	case Limited:
		return "limited"
	case Replayed:
		return "replayed"
	case KeyReused:
		return "key_reused"
	}
	return "outcome(" + strconv.Itoa(int(o)) + ")"
}

// Request is one check-and-spend: the canonical bucket id, the optional
// Idempotency-Key and the SHA-256 of the raw request body.
type Request struct {
	Bucket         string
	IdempotencyKey string
	BodySHA256     [32]byte
	BodyBytes      int
}

// Decision is the result of Decide.
type Decision struct {
	Outcome Outcome
	// Status and Body are the response: 200 and the accepted body for
	// Allowed, the stored ones for Replayed; 429/422 with a nil Body
	// otherwise (the HTTP layer renders those).
	Status int
	Body   []byte
	// Limit, Remaining and Reset (unix seconds) are the rate-limit headers.
	// With the flag off Remaining is the sentinel.
	Limit     int
	Remaining int
	Reset     int64
	// RetryAfter is seconds until the model allows again (at least 1) for
	// Limited.
	RetryAfter int64
	// PenaltyUntil is the unix second a penalty of the bucket ends, for a
	// request Limited under one (model.Penalties); 0 otherwise.
	PenaltyUntil int64
	// RideID names the ingested row (Allowed only).
	RideID string
	// Wait is how long an Allowed answer is held before it is sent: its
	// turn in a leaky bucket's queue (model.Decision.Wait); 0 at once.
	Wait time.Duration
}
