package profile

import (
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/model"
)

// fixedWindowEntry is spec/003's and spec/004's N per window, its windows
// on the epoch's grid, opened by a key's first request, on the key's own
// grid or on one grid for all keys (WINDOW_ALIGN).
var fixedWindowEntry = Profile{
	Name: FixedWindow, Explain: "A fixed window allows N per window of W and gives the whole of N back when the window ends. Where the windows lie is the `WINDOW_ALIGN` setting (the table below): on the epoch's grid, opened by a key's first request, on a grid of the key's own, or on one grid for all keys. The scenarios aim their requests at the window's start and end: at most N per window, at most 2N (grids) or 2N − 1 (first-request) in any span of W, N fresh allowances in the next window, and exactly N of N+20 racing on a fresh key.",
	Seed:      "spec/003 fixed_window; spec/004",
	Algorithm: "at most N allowed per window; windows aligned to the epoch (003) or opened by the first request (004)",
	Defaults:  Defaults{Key: userHeader, Method: "GET", Dialect: "auto", LimitedBody: "none", Align: AlignEpoch},
	Takes:     append(clone(httpSettings), SettingWindowAlign),
	Extra:     []Feature{AnonymousOpen},
	Design:    fixedWindow,
	Refill:    RefillWindow,
	Quota:     limitQuota,
	AtQuota:   atLimit,
	Quick:     quick,
	Aligns:    Aligns(),
	// The scenarios read epoch and first-request windows; only those
	// tagged @align: read a grid.
	Unread: []Align{AlignKeyGrid, AlignGrid},
	Bounds: fixedWindowBounds,
	label:  func(p Params) string { return string(FixedWindow) + " " + string(max(p.Align, AlignEpoch)) },
}

// fixedWindow is the fixed window of p's alignment: on the epoch's grid,
// opened by the first request (the PRD's rule), on the key's own grid or
// on one grid anchored at p.Anchor.
func fixedWindow(p Params) (model.Model, error) {
	switch p.Align {
	case AlignFirstRequest:
		return model.NewPRD(p.Limit, p.Window)
	case AlignKeyGrid:
		return model.NewKeyGrid(p.Limit, p.Window)
	case AlignGrid:
		return model.NewGrid(p.Limit, p.Window, p.Anchor)
	}
	return model.NewEpoch(p.Limit, p.Window)
}

// fixedWindowBounds: at most N per window (FW-1) where the windows lie
// where the history can tell, at most 2N (on a grid) or 2N − 1 (opened by
// a first request) in any span of W (FW-2), and no over-blocking.
func fixedWindowBounds(a Answered) (over, under []bound.Violation) {
	n, w, tol := a.Limit, a.Window, a.Tolerance
	most := 2 * n
	switch a.Align {
	case AlignFirstRequest:
		most = 2*n - 1
		over = bound.FirstWindow(a.Events, n, w, tol)
	case "", AlignEpoch:
		over = bound.EpochWindows(a.Events, n, w, tol)
	} // a grid's windows lie where only the target knows: the burst bound
	_, burst := bound.Burst(a.Events, most, w, tol)
	return append(over, burst...), overBlocking(a)
}
