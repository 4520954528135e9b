package profile

import (
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/model"
)

// slidingLogEntry is spec/002's log of each key's requests of the last W.
var slidingLogEntry = Profile{
	Name: SlidingLog, Seed: "spec/002; spec/003 sliding_window",
	Algorithm: "at most N allowed in any window of length W",
	Defaults: Defaults{Key: userHeader, Method: "GET", Dialect: "auto",
		LimitedBody: "/error/code=RATE_LIMITED"},
	Takes:   httpSettings,
	Design:  func(p Params) (model.Model, error) { return model.NewSlidingLog(p.Limit, p.Window) },
	Refill:  RefillSliding,
	Quota:   limitQuota,
	AtQuota: atLimit,
	Quick:   quick,
	Bounds:  slidingLogBounds,
}

// slidingLogBounds: at most N in any window of W (SL-1) and no
// over-blocking (SL-4).
func slidingLogBounds(a Answered) (over, under []bound.Violation) {
	return bound.SlidingLog(a.Events, a.Limit, a.Window, a.Tolerance), overBlocking(a)
}

// overBlocking is SL-4's check of a key whose every request was answered.
func overBlocking(a Answered) []bound.Violation {
	if !a.Complete {
		return nil
	}
	return bound.OverBlocking(a.Events, a.Limit, a.Window, a.Tolerance)
}
