package model

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// TokenBucket is profiles.md's token-bucket (spec/003 token_bucket, spec/000
// "gradual refill"): a bucket of Burst tokens refilled continuously at Rate
// tokens per second (fractional: 0.5 is one token every 2 s), never above
// Burst; a request spends its cost when the bucket holds that many tokens.
//
// It is kept as the bucket's theoretical arrival time (GCRA): full, the
// unix microsecond at which the bucket is full again. The level at now is
// Burst − (full − now)/interval tokens, interval = ⌈1e6/Rate⌉ µs per token,
// so refill is exact, fractions of a token are kept, and the cap is the
// max(full, now) below — no stored level can exceed Burst.
//
//   - Allowed when the level holds the cost: full moves cost·interval later.
//     Remaining = whole tokens left after the request (TB-7).
//   - Otherwise refused and nothing changes: Remaining = whole tokens left,
//     RetryAfter = whole seconds until the cost fits (TB-6: at most ⌈1/Rate⌉
//     for a cost of 1).
//   - Reset = the unix second at or after which the bucket is full again,
//     at least now + 1 s (TB-7: within [now, now + ⌈Burst/Rate⌉ + 1]).
//
// State.Log holds full (decimal unix microseconds); State.Reset the second
// the bucket is full again (a store may delete the key then: a fresh key is
// a full bucket); State.Remaining the whole tokens left at the last write.
// No column beyond the fixed-window ones and the sliding log's is needed.
type TokenBucket struct {
	Burst int
	Rate  float64 // tokens per second
}

var _ Model = TokenBucket{}

// NewTokenBucket checks burst >= 1 and a finite rate in (0, 1e6] tokens/s.
func NewTokenBucket(burst int, rate float64) (TokenBucket, error) {
	if err := CheckTokenBucket(burst, rate); err != nil {
		return TokenBucket{}, fmt.Errorf("token-bucket model: %w", err)
	}
	return TokenBucket{Burst: burst, Rate: rate}, nil
}

// CheckTokenBucket reports a burst or rate the model cannot take.
func CheckTokenBucket(burst int, rate float64) error {
	switch {
	case burst < 1:
		return fmt.Errorf("burst %d is not a positive integer", burst)
	case math.IsNaN(rate) || rate <= 0 || rate > 1e6:
		return fmt.Errorf("rate %g is not in (0, 1000000] tokens per second", rate)
	}
	return nil
}

// Interval is the microseconds the bucket takes to refill one token.
func (m TokenBucket) Interval() int64 {
	return int64(math.Ceil(1e6 / m.Rate))
}

// Step applies the rule above.
func (m TokenBucket) Step(st State, req Request, now time.Time) (State, Decision) {
	t, iv := now.UnixMicro(), m.Interval()
	full := max(FullAt(st), t) // the cap: an idle bucket is full, never fuller
	burst := int64(m.Burst) * iv
	d := Decision{Limit: m.Burst, Remaining: m.whole(full, t), Reset: m.reset(full, now)}
	if req.Cost == 0 {
		d.Allowed = true
		return st, d
	}
	need := int64(req.Cost) * iv
	if full-t+need > burst {
		d.RetryAfter = max(ceilDiv(full-t+need-burst, 1_000_000), 1)
		return st, d
	}
	full += need
	next := State{Found: true, Remaining: m.whole(full, t), Reset: m.reset(full, now), Log: strconv.FormatInt(full, 10)}
	d.Allowed, d.Remaining, d.Reset, d.Write = true, next.Remaining, next.Reset, true
	return next, d
}

// whole is the whole tokens in a bucket full at full, at t.
func (m TokenBucket) whole(full, t int64) int {
	return m.Burst - int(ceilDiv(full-t, m.Interval()))
}

// reset is the unix second at or after full, and after now.
func (m TokenBucket) reset(full int64, now time.Time) int64 {
	return max(ceilDiv(full, 1_000_000), now.Unix()+1)
}

// FullAt is the unix microsecond at which a token bucket's stored state is
// full again; 0 (long full) for a key never seen or state of another design.
func FullAt(st State) int64 {
	if !st.Found {
		return 0
	}
	full, err := strconv.ParseInt(st.Log, 10, 64)
	if err != nil {
		return 0
	}
	return full
}

// ceilDiv is ⌈a/b⌉ for b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b > 0 {
		q++
	}
	return q
}

// Canonical is st as it decides every request from at on: the key never
// seen once the bucket is full again, else its fill instant alone
// (Remaining and Reset are recomputed at each Step).
func (m TokenBucket) Canonical(st State, at time.Time) State { return bucketCanonical(st, at) }

// ResetHorizon is the furthest a Reset may lie ahead: the time the bucket
// takes to fill, ⌈B/R⌉ s (TB-7).
func (m TokenBucket) ResetHorizon() time.Duration { return fillTime(float64(m.Burst), m.Rate) }

// bucketCanonical is Canonical of the designs whose state is the instant
// the key is full (or its queue empty) again.
func bucketCanonical(st State, at time.Time) State {
	if FullAt(st) <= at.UnixMicro() {
		return State{}
	}
	return State{Found: true, Log: st.Log}
}

// fillTime is ⌈n/rate⌉ seconds, 0 for a rate not above 0.
func fillTime(n, rate float64) time.Duration {
	if rate <= 0 {
		return 0
	}
	return time.Duration(math.Ceil(n/rate)) * time.Second
}
