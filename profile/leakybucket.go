package profile

import (
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/model"
)

// leakyBucketEntry is the per-key queue of B drained at R: the classic
// web-server and proxy limiter.
var leakyBucketEntry = Profile{
	Name: LeakyBucket, Seed: "none of the seeds; the classic web-server and proxy limiter (request shaping)",
	Algorithm: "a per-key queue of B drained at R requests/s: excess is delayed, not refused, until the queue is full",
	Defaults:  Defaults{Key: userHeader, Method: "GET", Dialect: "auto", LimitedBody: "none"},
	Takes:     append(clone(httpSettings), SettingBurst, SettingRate, SettingLBMode, SettingDelay),
	Design:    func(p Params) (model.Model, error) { return model.NewLeakyBucket(p.Burst, p.Rate, p.Delay, p.NoDelay) },
	Refill:    RefillRate,
	Quota:     func(p Params) int { return p.Burst + 1 },
	AtQuota: func(p Params, q int) Params {
		p.Limit, p.Burst = q, q-1 // a quota is the queue's places and the one in service
		return p
	},
	Quick:  quick,
	Queues: true,
	Bounds: leakyBucketBounds,
	label: func(p Params) string {
		if p.NoDelay {
			return string(LeakyBucket) + " nodelay"
		}
		return string(LeakyBucket)
	},
}

// leakyBucketBounds bounds the admissions (decisions, not the held
// answers) of a queue of B + 1 drained at R: at most B + 1 + R·Δt + 1 in
// any interval — the queue bound (LB-2) over time. LB-1's spacing of the
// answers is the acceptance suite's: the race hunter's clock may be a fake
// one the held answers do not follow.
func leakyBucketBounds(a Answered) (over, under []bound.Violation) {
	if lb, ok := a.Model.(model.LeakyBucket); ok {
		over = bound.TokenBucket(a.Events, lb.Burst+1, lb.Rate, a.Tolerance)
		for i := range over {
			over[i].Clause = clause.LB2
		}
	}
	return over, nil
}
