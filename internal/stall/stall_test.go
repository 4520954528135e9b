package stall

import (
	"testing"
	"time"
)

func TestLostCountsOnlyTheStallsInside(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	wakes := []wake{
		{At: at(100), Lag: 50 * time.Millisecond},   // [50, 100]
		{At: at(1000), Lag: 600 * time.Millisecond}, // [400, 1000]
		{At: at(3000), Lag: time.Second},            // [2000, 3000]
	}
	for _, c := range []struct {
		from, to int
		want     time.Duration
	}{
		{0, 5000, 1650 * time.Millisecond},
		{75, 500, 125 * time.Millisecond},
		{1000, 2000, 0},
		{2500, 2600, 100 * time.Millisecond},
		{3001, 9000, 0},
	} {
		if got := lost(wakes, at(c.from), at(c.to)); got != c.want {
			t.Errorf("lost in [%d, %d] ms = %s, want %s", c.from, c.to, got, c.want)
		}
	}
}

func TestRingKeepsTheLastWakes(t *testing.T) {
	m := &Monitor{}
	t0 := time.Unix(1_800_000_000, 0)
	for i := range keep + 10 {
		m.record(wake{At: t0.Add(time.Duration(i) * time.Second), Lag: time.Millisecond})
	}
	if len(m.wakes) != keep {
		t.Fatalf("%d wakes kept, want %d", len(m.wakes), keep)
	}
	if got := m.Lost(t0, t0.Add(9*time.Second)); got != 0 {
		t.Errorf("the oldest wakes are still counted: %s", got)
	}
	if got := m.Lost(t0.Add(time.Duration(keep)*time.Second-time.Millisecond), t0.Add(time.Duration(keep+9)*time.Second)); got != 10*time.Millisecond {
		t.Errorf("the newest wakes: %s, want 10ms", got)
	}
}
