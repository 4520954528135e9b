package profile

import (
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/model"
)

// prdEntry is spec/001's device buckets, the default profile: its target
// contract fixes key, method, dialect and body, and its suite seeds its
// buckets through TARGET_DB (no Quick size).
var prdEntry = Profile{
	Name: PRD, Explain: "The PRD (spec/001 with spec/000): a device bucket of N requests per window W opened by the bucket's first request, keyed by the body's `device_bucket` (the client address without one); a replay with the same `Idempotency-Key` and body spends once; `BMTC_RATE_LIMIT_ENABLED=false` turns limiting off. Its scenarios seed a bucket's quota or age its window through `TARGET_DB` where it is given, instead of draining and waiting.",
	Seed:      "spec/001 (+000)",
	Algorithm: "fixed window opened by a bucket's first request; idempotent replays; flag",
	Defaults: Defaults{Key: "body:device_bucket", Method: "POST", Dialect: "x-ratelimit", ResetFormat: "unix",
		LimitedBody: "/error=rate_limited", Features: []Feature{FailClosed}},
	Design:  func(p Params) (model.Model, error) { return model.NewPRD(p.Limit, p.Window) },
	Refill:  RefillWindow,
	Quota:   limitQuota,
	AtQuota: atLimit,
	Bounds:  noBounds,
}

// noBounds: the PRD's histories are checked answer by answer and against
// the oracle, with no bound of package bound.
func noBounds(Answered) (over, under []bound.Violation) { return nil, nil }
