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
	var st State
	step := func(ms int64, cost int, wantAllowed bool, wantRem int, wantReset, wantRetry int64) {
		t.Helper()
		var d Decision
		st, d = m.Step(st, Request{Cost: cost}, t0.Add(time.Duration(ms)*time.Millisecond))
		if d.Allowed != wantAllowed || d.Remaining != wantRem || d.Reset != wantReset || d.RetryAfter != wantRetry || d.Limit != 3 {
			t.Fatalf("at +%dms: %+v, want allowed=%v remaining=%d reset=%d retry=%d", ms, d, wantAllowed, wantRem, wantReset, wantRetry)
		}
	}
	step(0, 1, true, 2, 1_000_001, 0)     // TB-2: a fresh key is a full bucket; full again in 500 ms
	step(0, 1, true, 1, 1_000_001, 0)     // full again at +1 s
	step(0, 1, true, 0, 1_000_002, 0)     // at +1.5 s
	step(0, 1, false, 0, 1_000_002, 1)    // TB-6: a token in 500 ms: Retry-After 1
	step(250, 1, false, 0, 1_000_002, 1)  // half a token is kept, not dropped
	step(500, 1, true, 0, 1_000_002, 0)   // one token back
	step(1250, 1, true, 0, 1_000_003, 0)  // 1.5 tokens at +1250 (TB-4: fractions carry)
	step(1250, 0, true, 0, 1_000_003, 0)  // a look spends nothing
	step(9_000, 1, true, 2, 1_000_010, 0) // TB-3: idle long, full, never fuller
	step(9_000, 1, true, 1, 1_000_010, 0)
	step(9_000, 1, true, 0, 1_000_011, 0)
	step(9_000, 1, false, 0, 1_000_011, 1)
	if _, d := m.Step(State{}, Request{Cost: 5}, t0); d.Allowed || d.RetryAfter != 1 {
		t.Fatalf("a cost above the burst: %+v", d)
	}
	slow := TokenBucket{Burst: 2, Rate: 0.3} // one token every 3.34 s
	st = State{}
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
