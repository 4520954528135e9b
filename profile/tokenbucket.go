package profile

import (
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/model"
)

// tokenBucketEntry is spec/003's bucket of B tokens refilled at R (GCRA).
var tokenBucketEntry = Profile{
	Name: TokenBucket, Explain: "A token bucket holds B tokens (`RL_BURST`), refilled continuously at R per second (`RL_RATE`, may be fractional) and never above B; each allowed request spends one. GCRA is the same design. The scenarios drain a key and measure the refill against R, check that a client sending at 0.9·R is never refused, race B + k on a fresh key, and read Remaining and Reset as whole tokens and the time to fill.",
	Seed:      "spec/003 token_bucket; spec/000 gradual refill",
	Algorithm: "bucket of B tokens, refilled continuously at R tokens/s (GCRA: B is the burst)",
	Defaults:  Defaults{Key: userHeader, Method: "GET", Dialect: "auto", LimitedBody: "none"},
	Takes:     append(clone(httpSettings), SettingBurst, SettingRate),
	Design:    func(p Params) (model.Model, error) { return model.NewTokenBucket(p.Burst, p.Rate) },
	Refill:    RefillRate,
	Quota:     func(p Params) int { return p.Burst },
	AtQuota: func(p Params, q int) Params {
		p.Limit, p.Burst = q, q // a quota is the bucket's size
		return p
	},
	Quick:  quick,
	Bounds: tokenBucketBounds,
}

// tokenBucketBounds is TB-1's arrival curve: at most B + R·Δt + 1 allowed
// in any interval.
func tokenBucketBounds(a Answered) (over, under []bound.Violation) {
	if tb, ok := a.Model.(model.TokenBucket); ok {
		over = bound.TokenBucket(a.Events, tb.Burst, tb.Rate, a.Tolerance)
	}
	return over, nil
}
