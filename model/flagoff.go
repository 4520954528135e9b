package model

import "time"

// FlagOff is any design with its feature flag switched off (spec/001 FR-8,
// AC8): every request is allowed, nothing is spent or stored, Remaining is
// the Sentinel (default 999) and Reset is now + Window.
type FlagOff struct {
	Limit    int
	Window   time.Duration
	Sentinel int
}

var _ Model = FlagOff{}

// Step allows and changes nothing.
func (m FlagOff) Step(st State, _ Request, now time.Time) (State, Decision) {
	return st, Decision{Allowed: true, Limit: m.Limit, Remaining: m.Sentinel, Reset: now.Unix() + wholeSeconds(m.Window)}
}
