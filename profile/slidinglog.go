package profile

import (
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/model"
)

// slidingLogEntry is spec/002's log of each key's requests of the last W.
var slidingLogEntry = Profile{
	Name: SlidingLog, Explain: "A sliding log keeps each allowed request's time and allows a request while fewer than N lie in the last W: no span of W ever holds more than N, and quota comes back request by request as each leaves the window. The scenarios send bursts at every phase of any grid (a windowed design fails there), race N+5 on a fresh key, and check that a refused client is served again once its oldest request has left.",
	Seed:      "spec/002; spec/003 sliding_window",
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
