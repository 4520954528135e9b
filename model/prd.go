package model

import (
	"fmt"
	"time"
)

// PRD is spec/001's fixed window opened by a bucket's first request, as the
// target contract reads it:
//
//   - a key's first request opens a window: Limit units, Reset = now + Window;
//   - while Reset > now each allowed request spends a unit and Reset does
//     not move; with no unit left the answer is a refusal (429) with
//     RetryAfter = Reset - now (at least 1) and nothing changes;
//   - the first request at or after Reset opens a new window the same way.
//
// A look (Cost 0) shows the window in force, or a full one that would start
// now when the key is absent or expired, and changes nothing.
type PRD struct {
	Limit  int
	Window time.Duration // whole seconds
}

var _ Model = PRD{}

// NewPRD checks limit >= 1 and window a whole number of seconds >= 1s.
func NewPRD(limit int, window time.Duration) (PRD, error) {
	return checked("prd", PRD{Limit: limit, Window: window}, limit, window)
}

// Step applies the rule above.
func (m PRD) Step(st State, req Request, now time.Time) (State, Decision) {
	t := now.Unix()
	cur := st
	if !st.Found || st.Reset <= t {
		cur = State{Found: true, Remaining: m.Limit, Reset: t + wholeSeconds(m.Window)}
	}
	return spendWindow(m.Limit, st, cur, req.Cost, t)
}

// checked is m, the design named design of limit and window, once
// checkWindow accepts them; otherwise the zero M and the reason.
func checked[M Model](design string, m M, limit int, window time.Duration) (M, error) {
	if err := checkWindow(limit, window); err != nil {
		var zero M
		return zero, fmt.Errorf("%s model: %w", design, err)
	}
	return m, nil
}

func checkWindow(limit int, window time.Duration) error {
	switch {
	case limit < 1:
		return fmt.Errorf("limit %d < 1", limit)
	case window < time.Second || window%time.Second != 0:
		return fmt.Errorf("window %v is not a whole number of seconds >= 1s", window)
	}
	return nil
}
