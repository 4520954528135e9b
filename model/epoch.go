package model

import (
	"time"
)

// Epoch is the fixed window aligned to the epoch (profiles.md fixed-window,
// WINDOW_ALIGN=epoch; spec/003 fixed_window): window k is [kW, (k+1)W) in
// unix seconds and holds Limit units. Reset is the window's end. A look
// (Cost 0) shows the window in force and changes nothing.
type Epoch struct {
	Limit  int
	Window time.Duration // whole seconds
}

var _ Model = Epoch{}

// NewEpoch checks limit >= 1 and window a whole number of seconds >= 1s.
func NewEpoch(limit int, window time.Duration) (Epoch, error) {
	return checked("epoch", Epoch{Limit: limit, Window: window}, limit, window)
}

// Step spends from the window that holds now.
func (m Epoch) Step(st State, req Request, now time.Time) (State, Decision) {
	t, w := now.Unix(), wholeSeconds(m.Window)
	end := (t/w + 1) * w
	if t < 0 && t%w != 0 {
		end -= w // floor division for times before 1970
	}
	cur := st
	if !st.Found || st.Reset != end {
		cur = State{Found: true, Remaining: m.Limit, Reset: end}
	}
	return spendWindow(m.Limit, st, cur, req.Cost, t)
}
