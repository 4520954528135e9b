package dialect

import "testing"

func TestPenaltyOf(t *testing.T) {
	for _, c := range []struct {
		body   string
		active bool
		until  int64
	}{
		{`{"error":{"code":"RATE_LIMITED","retryAfter":3},"penalty_active":true,"penalty_until":1800000005}`, true, 1800000005},
		{`{"error":{"penalty_active":true,"penalty_until":17}}`, true, 17},
		{`{"error":"rate_limited","retry_after":2}`, false, 0},
		{`{"penalty_active":false,"penalty_until":9}`, false, 0},
		{`"penalty_active" but not JSON`, false, 0},
		{``, false, 0},
	} {
		active, until := PenaltyOf([]byte(c.body))
		if active != c.active || until != c.until {
			t.Errorf("PenaltyOf(%s) = %v, %d; want %v, %d", c.body, active, until, c.active, c.until)
		}
	}
}
