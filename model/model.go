// Package model holds rate-limiter designs as pure decision functions: a
// Model takes a key's State, a Request and the time and returns the next
// State and a Decision. Nothing here reads a clock, a store or the network;
// time is an argument, as in golang.org/x/time/rate.
//
// The PRD's fixed window opened by a bucket's first request (spec/001) is
// PRD; its feature flag switched off is FlagOff; the fixed window aligned to
// the epoch (profiles.md fixed-window, WINDOW_ALIGN=epoch) is Epoch, on a
// key's own grid (key-grid) KeyGrid, on one grid anchored at an instant
// (grid) Grid; at most
// N in any window of length W (profiles.md sliding-log) is SlidingLog; a
// bucket of B tokens refilled continuously at R per second (profiles.md
// token-bucket) is TokenBucket; a queue of B drained at R per second
// (profiles.md leaky-bucket) is LeakyBucket; the weighted two-window
// estimate on the epoch's grid (profiles.md sliding-window-counter) is
// WindowCounter. The same
// Model is the reference's policy, the race hunter's sequential oracle and
// what checks ask for expectations. A new design is one more file with a
// type implementing Model, plus one line in the model_test.go that runs the
// conformance suite (package modeltest) against it.
package model

import "time"

// State is what a store keeps for one key between requests. The zero State
// (Found false) is a key never seen. Fixed-window designs use Remaining and
// Reset; designs that need more (a sliding log's timestamps, a token
// bucket's fractional level) add fields here, and a store that persists
// them.
type State struct {
	Found     bool  // the key has stored state
	Remaining int   // units left in the current window
	Reset     int64 // unix seconds at which the current window ends
	// Log is a sliding log's allowed requests in its window (EncodeLog:
	// ascending unix milliseconds), a token bucket's unix microsecond at
	// which it is full again (TokenBucket), or a window counter's count of
	// the previous window (WindowCounter); empty for window designs. A
	// string so that State stays comparable.
	Log string
	// Penalty is the key's violation record when penalties wrap the design
	// (Penalties); the zero Penalty otherwise.
	Penalty Penalty
}

// Request is what one call asks of a key. Cost is the units it spends: 1 for
// a request, 0 for a look that spends nothing (the headers of a replay or a
// refused idempotency key).
type Request struct {
	Cost int
}

// Decision is a model's answer to one request. Limit, Remaining and Reset
// are the X-RateLimit-* headers; RetryAfter is set when the request is
// refused. Profiles with more to say (a penalty's end, a tier) add fields.
type Decision struct {
	Allowed    bool
	Limit      int
	Remaining  int
	Reset      int64 // unix seconds
	RetryAfter int64 // seconds, >= 1 when !Allowed; 0 otherwise
	// PenaltyUntil is the unix second a penalty of the key ends when the
	// request was refused under one (Penalties); 0 otherwise.
	PenaltyUntil int64
	// Wait is how long an allowed request's answer is held before it is
	// sent: its turn in a leaky bucket's queue (LeakyBucket); 0 at once.
	Wait time.Duration
	// Write tells the caller that the next State differs from the one given
	// and must be stored.
	Write bool
}

// Model is one rate-limiter design.
type Model interface {
	// Step decides req against st at now. It must be pure: the same
	// arguments give the same results, and st is not retained.
	Step(st State, req Request, now time.Time) (State, Decision)
}

// wholeSeconds is d in seconds, at least 1.
func wholeSeconds(d time.Duration) int64 {
	return max(int64(d/time.Second), 1)
}
