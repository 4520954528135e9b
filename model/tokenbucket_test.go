package model

import (
	"testing"
	"time"
)

func TestTokenBucketRule(t *testing.T) {
	m, err := NewTokenBucket(3, 2) // one token every 500 ms
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1_000_000, 0)
	s := stepper{t: t, m: m, base: t0, limit: 3}
	s.step(0, 1, true, 2, 1_000_001, 0)     // TB-2: a fresh key is a full bucket; full again in 500 ms
	s.step(0, 1, true, 1, 1_000_001, 0)     // full again at +1 s
	s.step(0, 1, true, 0, 1_000_002, 0)     // at +1.5 s
	s.step(0, 1, false, 0, 1_000_002, 1)    // TB-6: a token in 500 ms: Retry-After 1
	s.step(250, 1, false, 0, 1_000_002, 1)  // half a token is kept, not dropped
	s.step(500, 1, true, 0, 1_000_002, 0)   // one token back
	s.step(1250, 1, true, 0, 1_000_003, 0)  // 1.5 tokens at +1250 (TB-4: fractions carry)
	s.step(1250, 0, true, 0, 1_000_003, 0)  // a look spends nothing
	s.step(9_000, 1, true, 2, 1_000_010, 0) // TB-3: idle long, full, never fuller
	s.step(9_000, 1, true, 1, 1_000_010, 0)
	s.step(9_000, 1, true, 0, 1_000_011, 0)
	s.step(9_000, 1, false, 0, 1_000_011, 1)
	if _, d := m.Step(State{}, Request{Cost: 5}, t0); d.Allowed || d.RetryAfter != 1 {
		t.Fatalf("a cost above the burst: %+v", d)
	}
	slow := TokenBucket{Burst: 2, Rate: 0.3} // one token every 3.34 s
	var st State
	for range 2 {
		st, _ = slow.Step(st, Request{Cost: 1}, t0)
	}
	if _, d := slow.Step(st, Request{Cost: 1}, t0); d.Allowed || d.RetryAfter != 4 {
		t.Fatalf("rate 0.3: %+v, want Retry-After 4 (⌈1/R⌉)", d)
	}
	if _, d := slow.Step(st, Request{Cost: 1}, t0.Add(3334*time.Millisecond)); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("rate 0.3 after 1/R: %+v", d)
	}
}

func TestTokenBucketChecks(t *testing.T) {
	for _, c := range []struct {
		burst int
		rate  float64
	}{{0, 1}, {1, 0}, {1, -1}, {1, 2e6}} {
		if _, err := NewTokenBucket(c.burst, c.rate); err == nil {
			t.Errorf("burst %d rate %g accepted", c.burst, c.rate)
		}
	}
}

// TestTokenBucketProperties walks random request times: never more than
// B + R·Δt allowed in any [t1, t2] (TB-1), Remaining the whole tokens of a
// continuous bucket (TB-7), and a client at 0.9·R after draining is never
// refused (TB-4).
func TestTokenBucketProperties(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	for _, m := range []TokenBucket{{1, 1}, {5, 2}, {3, 0.3}, {10, 7.5}} {
		var st State
		now := t0
		var allowed []time.Time
		level, last := float64(m.Burst), now // a float bucket to compare with
		for i := range 2000 {
			now = now.Add(time.Duration((i*7919)%9) * m.perTokenForTest() / 4) // 0 to 2 tokens' time apart
			level = min(level+now.Sub(last).Seconds()*m.Rate, float64(m.Burst))
			last = now
			var d Decision
			st, d = m.Step(st, Request{Cost: 1}, now)
			if d.Allowed {
				allowed = append(allowed, now)
				level--
				if want := int(level + 1e-6); d.Remaining != want {
					t.Fatalf("%+v step %d: Remaining %d, a continuous bucket holds %.4f", m, i, d.Remaining, level)
				}
			} else if level >= 1+1e-6 {
				t.Fatalf("%+v step %d: refused with %.4f tokens", m, i, level)
			}
		}
		for i := range allowed {
			for j := i; j < len(allowed); j++ {
				if most := float64(m.Burst) + m.Rate*allowed[j].Sub(allowed[i]).Seconds(); float64(j-i+1) > most+1e-6 {
					t.Fatalf("%+v: %d allowed in %s, at most %.2f", m, j-i+1, allowed[j].Sub(allowed[i]), most)
				}
			}
		}
		// drained, then every 1/(0.9·R): never refused
		for {
			var d Decision
			if st, d = m.Step(st, Request{Cost: 1}, now); !d.Allowed {
				break
			}
		}
		every := time.Duration(float64(time.Second) / (0.9 * m.Rate))
		for i := 1; i <= 20; i++ {
			var d Decision
			if st, d = m.Step(st, Request{Cost: 1}, now.Add(time.Duration(i)*every)); !d.Allowed {
				t.Fatalf("%+v: a client at 0.9·R refused at request %d", m, i)
			}
		}
	}
}

func (m TokenBucket) perTokenForTest() time.Duration {
	return time.Duration(m.Interval()) * time.Microsecond
}
