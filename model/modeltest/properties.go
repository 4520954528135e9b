package modeltest

import (
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
)

// TestPure: the same arguments give the same results.
func TestPure(t testing.TB, s Subject) {
	for seed := range uint64(seeds) {
		calls, limit, window := walk(s, seed, steps)
		m := s.New(limit, window)
		for i, c := range calls {
			next, d := m.Step(c.st, c.req, c.now)
			if next != c.next || d != c.d {
				t.Fatalf("seed %d step %d: Step(%+v, %+v, %v) gave %+v %+v, then %+v %+v", seed, i, c.st, c.req, c.now, c.next, c.d, next, d)
			}
		}
	}
}

// TestPeekChangesNothing: a look (Cost 0) is allowed, returns the state it
// was given and asks for no write.
func TestPeekChangesNothing(t testing.TB, s Subject) {
	forEach(t, s, func(c call, _ int, _ time.Duration) string {
		if c.req.Cost == 0 && (c.next != c.st || c.d.Write || !c.d.Allowed) {
			return "a look changed the state, asked for a write or was refused"
		}
		return ""
	})
}

// TestWriteIsHonest: Write is set exactly when the next state differs.
func TestWriteIsHonest(t testing.TB, s Subject) {
	forEach(t, s, func(c call, _ int, _ time.Duration) string {
		if c.d.Write != (c.next != c.st) {
			return "Write does not tell whether the state changed"
		}
		return ""
	})
}

// TestRefusalChangesNothing: a refused request leaves the state as it was,
// shows Remaining below its cost and a RetryAfter of at least 1 s.
func TestRefusalChangesNothing(t testing.TB, s Subject) {
	forEach(t, s, func(c call, _ int, _ time.Duration) string {
		switch {
		case c.d.Allowed && c.d.RetryAfter != 0:
			return "an allowed request carries a RetryAfter"
		case c.d.Allowed:
			return ""
		case c.next != c.st || c.d.Write:
			return "a refusal changed the state"
		case c.d.RetryAfter < 1:
			return "a refusal without RetryAfter >= 1"
		case c.d.Remaining >= c.req.Cost:
			return "a refusal with units remaining"
		}
		return ""
	})
}

// TestHeaders: Limit is the configured limit, Reset lies in the future,
// and (for enforcing models) Remaining is within [0, limit].
func TestHeaders(t testing.TB, s Subject) {
	forEach(t, s, func(c call, limit int, _ time.Duration) string {
		switch {
		case c.d.Limit != limit:
			return "Limit is not the configured limit"
		case c.d.Reset <= c.now.Unix():
			return "Reset is not in the future"
		case !s.Unlimited && (c.d.Remaining < 0 || c.d.Remaining > limit):
			return "Remaining outside [0, limit]"
		}
		return ""
	})
}

func forEach(t testing.TB, s Subject, check func(c call, limit int, window time.Duration) string) {
	t.Helper()
	for seed := range uint64(seeds) {
		calls, limit, window := walk(s, seed, steps)
		for i, c := range calls {
			if msg := check(c, limit, window); msg != "" {
				t.Fatalf("seed %d step %d (limit %d, window %v): %s: Step(%+v, %+v, %v) = %+v, %+v",
					seed, i, limit, window, msg, c.st, c.req, c.now.Unix(), c.next, c.d)
			}
		}
	}
}

// TestBurst: a fresh key at one instant gets exactly limit allowed requests
// (Remaining counting down to 0), then refusals; an unlimited model refuses
// none.
func TestBurst(t testing.TB, s Subject) {
	for _, limit := range []int{1, 2, 5, 500} {
		m := s.New(limit, time.Hour)
		var st model.State
		for i := range limit + 3 {
			var d model.Decision
			st, d = m.Step(st, model.Request{Cost: 1}, t0)
			want := i < limit || s.Unlimited
			if d.Allowed != want {
				t.Fatalf("limit %d: request %d allowed=%v, want %v", limit, i+1, d.Allowed, want)
			}
			if !s.Unlimited && d.Allowed && d.Remaining != limit-1-i {
				t.Fatalf("limit %d: request %d Remaining %d, want %d", limit, i+1, d.Remaining, limit-1-i)
			}
		}
	}
}

// TestRecovers: after a refusal, the same request RetryAfter seconds later
// is allowed.
func TestRecovers(t testing.TB, s Subject) {
	forEach(t, s, func(c call, limit int, window time.Duration) string {
		if c.d.Allowed {
			return ""
		}
		later := c.now.Add(time.Duration(c.d.RetryAfter) * time.Second)
		if _, d := s.New(limit, window).Step(c.next, c.req, later); !d.Allowed {
			return "still refused RetryAfter later"
		}
		return ""
	})
}

// TestTwiceLimitPerWindow: in any span of one window an enforcing model
// allows at most twice its limit (a fixed window's boundary burst).
func TestTwiceLimitPerWindow(t testing.TB, s Subject) {
	if s.Unlimited {
		return
	}
	for seed := range uint64(seeds) {
		calls, limit, window := walk(s, seed, steps)
		var allowed []time.Time
		for _, c := range calls {
			if c.d.Allowed && c.req.Cost > 0 {
				allowed = append(allowed, c.now)
			}
		}
		for i := range allowed {
			n := 0
			for j := i; j < len(allowed) && allowed[j].Sub(allowed[i]) < window; j++ {
				n++
			}
			if n > 2*limit {
				t.Fatalf("seed %d: %d allowed within %v of %v (limit %d)", seed, n, window, allowed[i], limit)
			}
		}
	}
}
