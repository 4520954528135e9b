package model

import (
	"time"
)

// KeyGrid is the fixed window on a grid of W anchored at the key's
// first-ever request (dialects.md, WINDOW_ALIGN=key-grid): the first
// request opens [t, t+W), as the PRD's; a request at or after the stored
// end finds a full window that still ends on that grid, whole windows
// later — after an idle gap the window does not restart at the request.
// Limit per window; Reset the window's end; a look changes nothing.
type KeyGrid struct {
	Limit  int
	Window time.Duration // whole seconds
}

var _ Model = KeyGrid{}

// NewKeyGrid checks limit >= 1 and window a whole number of seconds >= 1s.
func NewKeyGrid(limit int, window time.Duration) (KeyGrid, error) {
	return checked("key-grid", KeyGrid{Limit: limit, Window: window}, limit, window)
}

// Step spends from the grid window that holds now.
func (m KeyGrid) Step(st State, req Request, now time.Time) (State, Decision) {
	t, w := now.Unix(), wholeSeconds(m.Window)
	cur := st
	switch {
	case !st.Found:
		cur = State{Found: true, Remaining: m.Limit, Reset: t + w}
	case st.Reset <= t:
		cur = State{Found: true, Remaining: m.Limit, Reset: st.Reset + ((t-st.Reset)/w+1)*w}
	}
	return spendWindow(m.Limit, st, cur, req.Cost, t)
}

// Grid is the fixed window on one grid of W for every key, anchored at
// Anchor (dialects.md, WINDOW_ALIGN=grid: limiters whose windows start
// when the process starts): window k is [Anchor + kW, Anchor + (k+1)W).
// Epoch is Grid anchored at the epoch.
type Grid struct {
	Limit  int
	Window time.Duration // whole seconds
	Anchor int64         // unix seconds
}

var _ Model = Grid{}

// NewGrid checks limit >= 1 and window a whole number of seconds >= 1s.
func NewGrid(limit int, window time.Duration, anchor time.Time) (Grid, error) {
	return checked("grid", Grid{Limit: limit, Window: window, Anchor: anchor.Unix()}, limit, window)
}

// Step spends from the grid window that holds now.
func (m Grid) Step(st State, req Request, now time.Time) (State, Decision) {
	t, w := now.Unix(), wholeSeconds(m.Window)
	end := m.Anchor + (floorDiv(t-m.Anchor, w)+1)*w
	cur := st
	if !st.Found || st.Reset != end {
		cur = State{Found: true, Remaining: m.Limit, Reset: end}
	}
	return spendWindow(m.Limit, st, cur, req.Cost, t)
}
