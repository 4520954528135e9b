package profile

import (
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/model"
)

// tokenBucketEntry is spec/003's bucket of B tokens refilled at R (GCRA).
var tokenBucketEntry = Profile{
	Name: TokenBucket, Seed: "spec/003 token_bucket; spec/000 gradual refill",
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
