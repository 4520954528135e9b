package profile

import (
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/model"
)

// leakyBucketEntry is the per-key queue of B drained at R: the classic
// web-server and proxy limiter.
var leakyBucketEntry = Profile{
	Name: LeakyBucket, Explain: "A leaky bucket queues each key's excess in B places (`RL_BURST`) drained at R per second (`RL_RATE`): with `LB_MODE=delay` (the default) a request that finds the queue non-empty waits its turn and one that finds it full is refused at once; with `LB_MODE=nodelay` queued requests are answered at once and their places freed at R, which the token-bucket clauses check with B + 1; `RL_DELAY=D` answers the first D excess requests at once. nginx's `limit_req` is one. The scenarios measure how fast allowed answers leave, that B + 1 of a burst are allowed and the rest refused within a second, that no queued request waits longer than its turn, and that one key's queue delays no other key.",
	Seed:      "none of the seeds; the classic web-server and proxy limiter (request shaping)",
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
