package profile

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/model"
)

// windowCounterEntry is the sliding-window counter: the weighted two-window
// estimate most services and proxies build.
var windowCounterEntry = Profile{
	Name: SlidingWindowCounter, Explain: "A sliding-window counter keeps two counts per key, the current grid window's and the previous one's, and allows a request at t while the estimate e = p·(1 − (t − s)/W) + c is below N (p allowed in the previous window, c in this one, s its start). It trades a true log's exactness for O(1) state: it may allow more than N in a span of W, never more than N in one grid window. The scenarios check the weighted bound across a window's start (what tells it from a fixed window), that a request finding e ≤ N − 2 is allowed, and exactly N of N + k racing on a fresh key; each bound has a tolerance of one request and decision times anywhere in [send, receive]. Where refused requests count too, as HAProxy's and Fiber's counters do, claim `FEATURES=counts-refused`.",
	Seed:      "none of the seeds (spec/003 sums per-window rows); the sliding window most services and proxies build",
	Algorithm: "a two-window weighted estimate of the sliding count on a grid of W (the epoch's by default)",
	Defaults:  Defaults{Key: userHeader, Method: "GET", Dialect: "auto", LimitedBody: "none", Align: AlignEpoch},
	Takes:     append(clone(httpSettings), SettingWindowAlign),
	Extra:     []Feature{CountsRefused},
	Design:    windowCounter,
	Refill:    RefillSliding,
	Quota:     limitQuota,
	AtQuota:   atLimit,
	// SWC-2 is decided 1 s either side of each decision, so it needs W of
	// at least 5 s, and a counter that forgets the previous window shows
	// only when that window's weight 2.1 s into the next one lifts the
	// last of N − 1 sent there to N + 1: N·(1 − 2.1/W) ≥ 3. SWC-3 tells a
	// counter that weighs the previous window the wrong way 1.5 s before a
	// window ends by N·(2·3.5/W − 1) − N·(1 − 2.5/W) − 1 requests — the
	// 1 s either side costs N/W each — which is 0 at N = 10 and 2 at N =
	// 20 (W = 5 s): N = 20 leaves that margin. W = 5 s keeps the longest
	// scenario (SWC-3: two windows less 1.5 s) under 10 s.
	Quick:  Size{Limit: 20, Window: 5 * time.Second},
	Aligns: gridAligns, // its windows lie on a grid
	Bounds: windowCounterBounds,
	// SWC-6: Remaining is N − ⌈e⌉ ±1 — a counter that floors e, or
	// weighs the previous window by whole seconds left, is one off.
	RemainingSlack: 1,
}

// gridAligns are the alignments whose windows lie on a grid of W.
var gridAligns = []Align{AlignEpoch, AlignKeyGrid, AlignGrid}

// windowCounter is the sliding-window counter, counting refused requests
// when counts-refused is claimed.
// Its windows lie on the grid of p's alignment: the epoch's, the key's
// (key-grid) or one anchored at p.Anchor (grid); first-request is no grid.
func windowCounter(p Params) (model.Model, error) {
	m, err := model.NewWindowCounter(p.Limit, p.Window)
	m.CountsRefused = p.CountsRefused
	switch p.Align {
	case AlignFirstRequest:
		return nil, fmt.Errorf("window-counter model: WINDOW_ALIGN=%s: its windows lie on a grid (%s)", p.Align, AlignList(gridAligns))
	case AlignKeyGrid:
		m.KeyGrid = true
	case AlignGrid:
		m.Anchor = p.Anchor.Unix()
	}
	return m, err
}

// windowCounterBounds: SWC-1, at most N per grid window, and SWC-2, the
// weighted estimate.
func windowCounterBounds(a Answered) (over, under []bound.Violation) {
	over = bound.EpochWindows(a.Events, a.Limit, a.Window, a.Tolerance)
	return append(over, bound.WindowCounter(a.Events, a.Limit, a.Window, a.Tolerance)...), nil
}
