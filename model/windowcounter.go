package model

import (
	"strconv"
	"time"
)

// WindowCounter is profiles.md's sliding-window counter: windows of length
// Window on a grid (below); a request at t in the window starting at s,
// with p allowed requests in the previous window and c already allowed in
// this one, finds the estimate e = p·(1 − (t − s)/W) + c and is allowed
// iff e + cost − 1 < Limit. Refused requests are not counted, unless
// CountsRefused (the feature counts-refused, as some proxies do): then
// every request is counted in c, allowed or not.
//
// The key's State keeps the current window's end (Reset, unix seconds),
// Limit − c (Remaining) and p (Log, decimal). A decision's Remaining is
// Limit − ⌈e⌉ with this request counted, Reset the current window's end;
// a refusal's RetryAfter is the whole seconds until e has fallen far enough
// (e only falls while nothing is allowed, also across a window's end).
//
// The windows lie on the epoch's grid, or (KeyGrid, WINDOW_ALIGN=key-grid)
// on a grid of W anchored at the whole second of the key's first-ever
// request, or (Anchor, WINDOW_ALIGN=grid) on one grid anchored at Anchor.
type WindowCounter struct {
	Limit         int
	Window        time.Duration // whole seconds
	CountsRefused bool
	KeyGrid       bool  // WINDOW_ALIGN=key-grid
	Anchor        int64 // WINDOW_ALIGN=grid: an instant of the grid, unix seconds (0: the epoch's)
}

var _ Model = WindowCounter{}

// NewWindowCounter checks limit >= 1 and window a whole number of seconds >= 1s.
func NewWindowCounter(limit int, window time.Duration) (WindowCounter, error) {
	return checked("window-counter", WindowCounter{Limit: limit, Window: window}, limit, window)
}

// counts is a key's two windows at one instant: the current window's
// start and end (unix ms), p and c.
type counts struct {
	start, end int64
	p, c       int
}

// at rolls st to the window holding t (unix ms).
func (m WindowCounter) at(st State, t int64) counts {
	w, phase := m.Window.Milliseconds(), m.Anchor*1000
	if m.KeyGrid {
		phase = floorDiv(t, 1000) * 1000 // the first request's whole second
		if st.Found {
			phase = st.Reset * 1000 // a window's end lies on the key's grid
		}
	}
	start := phase + floorDiv(t-phase, w)*w
	cur := counts{start: start, end: start + w}
	prev, _ := strconv.Atoi(st.Log)
	switch stored := st.Reset * 1000; {
	case !st.Found:
	case stored == cur.end:
		cur.p, cur.c = prev, m.Limit-st.Remaining
	case stored == cur.start:
		cur.p = m.Limit - st.Remaining
	}
	return cur
}

// scaled is e·W (integer milliseconds) at t with extra more requests
// counted in the current window.
func (k counts) scaled(t int64, extra int) int64 {
	w := k.end - k.start
	return int64(k.p)*(k.end-t) + int64(k.c+extra)*w
}

// Step applies the rule above.
func (m WindowCounter) Step(st State, req Request, now time.Time) (State, Decision) {
	t, w := now.UnixMilli(), m.Window.Milliseconds()
	k := m.at(st, t)
	d := Decision{Limit: m.Limit, Reset: k.end / 1000}
	if req.Cost == 0 {
		d.Allowed, d.Remaining = true, max(m.Limit-int(ceilDiv(k.scaled(t, 0), w)), 0)
		return st, d
	}
	if k.scaled(t, req.Cost-1) >= int64(m.Limit)*w {
		d.RetryAfter = max((m.free(k, t, req.Cost)-t+999)/1000, 1)
		d.Reset = now.Unix() + d.RetryAfter
		if m.CountsRefused {
			d.Write = true
			return m.counted(k, req.Cost), d
		}
		return st, d
	}
	next := m.counted(k, req.Cost)
	d.Allowed, d.Write = true, true
	d.Remaining = max(m.Limit-int(ceilDiv(k.scaled(t, req.Cost), w)), 0)
	return next, d
}

// counted is k's state with cost more counted in the current window.
func (m WindowCounter) counted(k counts, cost int) State {
	return State{Found: true, Remaining: m.Limit - k.c - cost, Reset: k.end / 1000, Log: strconv.Itoa(k.p)}
}

// free is the first millisecond after t at which cost units fit, or a
// window on when they never do.
func (m WindowCounter) free(k counts, t int64, cost int) int64 {
	w := k.end - k.start
	room := int64(m.Limit-cost+1) * w // e·W must fall below this
	if room <= 0 {
		return t + w
	}
	if c := int64(k.c) * w; c < room {
		// p·(end − t') + c·W < room  ⇔  t' > end − (room − c)/p
		return k.end - (room-c)/int64(k.p) + 1 // p > 0: e·W ≥ room at t
	}
	// The next window: c·(end + W − t') < room  ⇔  t' > end + W − room/c.
	return k.end + w - room/int64(k.c) + 1
}

// floorDiv is ⌊a/b⌋ for b > 0, also for a < 0.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b < 0 {
		q--
	}
	return q
}

// Canonical is st as it decides every request from at on: the key never
// seen once both its windows are over (on the epoch's grid of W), else st.
func (m WindowCounter) Canonical(st State, at time.Time) State {
	w := m.Window.Milliseconds()
	if st.Reset*1000 < floorDiv(at.UnixMilli(), w)*w {
		return State{}
	}
	return st
}
