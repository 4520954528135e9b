package model

import (
	"testing"
	"time"
)

// stepper steps one key's state through a model, each request at base plus
// a number of milliseconds, and fails the test on a decision other than
// the one wanted.
type stepper struct {
	t     *testing.T
	m     Model
	base  time.Time
	limit int // the Limit every decision must report
	st    State
}

// step sends a request of cost at base + ms and checks its decision.
func (s *stepper) step(ms int64, cost int, wantAllowed bool, wantRem int, wantReset, wantRetry int64) {
	s.t.Helper()
	var d Decision
	s.st, d = s.m.Step(s.st, Request{Cost: cost}, s.base.Add(time.Duration(ms)*time.Millisecond))
	if d.Allowed != wantAllowed || d.Remaining != wantRem || d.Reset != wantReset || d.RetryAfter != wantRetry || d.Limit != s.limit {
		s.t.Fatalf("at %+dms: %+v, want allowed=%v remaining=%d reset=%d retry=%d", ms, d, wantAllowed, wantRem, wantReset, wantRetry)
	}
}
