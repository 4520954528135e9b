package model

// spendWindow is the rule every fixed-window design shares once it knows
// the window in force: cur is that window's state (Found, Remaining, Reset),
// st the stored state it came from. cost units are spent when cur has them;
// otherwise the request is refused and nothing changes.
func spendWindow(limit int, st, cur State, cost int, now int64) (State, Decision) {
	d := Decision{Limit: limit, Remaining: max(cur.Remaining, 0), Reset: cur.Reset}
	if cost == 0 {
		d.Allowed = true
		return st, d
	}
	if cur.Remaining < cost {
		d.RetryAfter = max(cur.Reset-now, 1)
		return st, d
	}
	cur.Remaining -= cost
	d.Allowed, d.Remaining, d.Write = true, cur.Remaining, true
	return cur, d
}
