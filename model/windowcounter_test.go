package model

import (
	"testing"
	"time"
)

// The weighted estimate, step by step (N = 5, W = 3 s, the issue's
// counter): a burst just before a window ends, then three more 1.8 s
// later — eight allowed within 1.8 s, which no sliding log allows.
func TestWindowCounterRule(t *testing.T) {
	m, err := NewWindowCounter(5, 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s := time.Unix(1_000_002, 0) // a window's start: 1_000_002 is a multiple of 3
	at := func(ms int64) time.Time { return s.Add(time.Duration(ms) * time.Millisecond) }
	sp := stepper{t: t, m: m, base: s, limit: 5}
	for i := range 5 {
		sp.step(-200, 1, true, 4-i, 1_000_002, 0) // the previous window: p = 0
	}
	sp.step(-100, 1, false, 0, 1_000_002, 1) // e = 5: refused until the window ends
	// +1.6 s: e = 5·(1 − 1.6/3) + c = 2.33 + c < 5 for c = 0, 1, 2.
	sp.step(1600, 1, true, 1, 1_000_005, 0) // ⌈3.33⌉ = 4 counted
	sp.step(1600, 1, true, 0, 1_000_005, 0)
	sp.step(1600, 1, true, 0, 1_000_005, 0)
	// e = 5.33: below 5 once 5·(3 − δ)/3 < 2, δ > 1.8 s: 0.2 s on, 1 whole second.
	sp.step(1600, 1, false, 0, 1_000_004, 1)
	sp.step(1801, 1, true, 0, 1_000_005, 0)
	if st := sp.st; st.Log != "5" || st.Remaining != 1 || st.Reset != 1_000_005 {
		t.Fatalf("state %+v: want p = 5, c = 4 in the window ending 1_000_005", st)
	}
	// Two windows on, both counts are forgotten.
	if _, d := m.Step(sp.st, Request{Cost: 1}, at(6000)); !d.Allowed || d.Remaining != 4 {
		t.Fatalf("two windows later: %+v", d)
	}
	// A cost above the limit never fits: a window.
	if _, d := m.Step(State{}, Request{Cost: 6}, at(0)); d.Allowed || d.RetryAfter != 3 {
		t.Fatalf("a cost above the limit: %+v", d)
	}
	if _, err := NewWindowCounter(0, time.Second); err == nil {
		t.Fatal("limit 0 accepted")
	}
}

// The grids (N = 2, W = 10 s): a key whose first request comes at
// 1003.4 s spends N; at 1011 s the epoch's grid has started a window
// (the previous weighs 2·0.9 = 1.8 < 2: allowed), the key's grid — from
// 1003 s — has not (c = 2: refused); one grid anchored at 1005 s started
// one at 1005 s (the previous weighs 2·0.4: allowed, Reset 1015).
func TestWindowCounterGrids(t *testing.T) {
	for _, c := range []struct {
		name    string
		keyGrid bool
		anchor  int64
		allowed bool
		reset   int64
	}{
		{"epoch", false, 0, true, 1020},
		{"key-grid", true, 0, false, 1013},
		{"grid", false, 1005, true, 1015},
	} {
		m, err := NewWindowCounter(2, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		m.KeyGrid, m.Anchor = c.keyGrid, c.anchor
		var st State
		for range 2 {
			var d Decision
			if st, d = m.Step(st, Request{Cost: 1}, time.UnixMilli(1_003_400)); !d.Allowed {
				t.Fatalf("%s: a fresh key's first N refused", c.name)
			}
		}
		_, d := m.Step(st, Request{Cost: 1}, time.Unix(1011, 0))
		if d.Allowed != c.allowed || (d.Allowed && d.Reset != c.reset) || (!d.Allowed && d.Reset > c.reset+1) {
			t.Errorf("%s at 1011 s: allowed %v (want %v), Reset %d (window's end %d)", c.name, d.Allowed, c.allowed, d.Reset, c.reset)
		}
	}
}
