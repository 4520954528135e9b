package model

import (
	"testing"
	"time"
)

func TestSlidingLogRule(t *testing.T) {
	m, err := NewSlidingLog(3, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Unix(1_000_000, 0)
	s := stepper{t: t, m: m, base: t0, limit: 3}
	s.step(0, 1, true, 2, 1_000_010, 0)     // fresh key: now + W
	s.step(500, 1, true, 1, 1_000_010, 0)   // Reset = oldest + W
	s.step(500, 1, true, 0, 1_000_010, 0)   // same millisecond counts (SL-2)
	s.step(900, 1, false, 0, 1_000_010, 10) // 9.1 s until the oldest leaves: 10 whole seconds
	s.step(9_999, 1, false, 0, 1_000_010, 1)
	s.step(10_000, 1, true, 0, 1_000_011, 0) // the oldest left at exactly +W
	s.step(10_000, 1, false, 0, 1_000_011, 1)
	if got := DecodeLog(s.st.Log); len(got) != 3 {
		t.Fatalf("log %v: refused requests recorded or old ones kept", got)
	}
	if _, d := m.Step(State{}, Request{Cost: 5}, t0); d.Allowed || d.RetryAfter != 10 {
		t.Fatalf("a cost above the limit: %+v", d)
	}
}

func TestLogEncoding(t *testing.T) {
	for _, log := range [][]int64{nil, {1}, {1, 2, 1_700_000_000_123}} {
		if got := DecodeLog(EncodeLog(log)); len(got) != len(log) {
			t.Fatalf("%v -> %q -> %v", log, EncodeLog(log), got)
		}
	}
	if got := DecodeLog("1,x,3"); len(got) != 2 {
		t.Fatalf("corrupt entry kept: %v", got)
	}
}
