package loadgen

import (
	"testing"
	"time"
)

func TestCountCPUList(t *testing.T) {
	for in, want := range map[string]int{"0": 1, "0-1\n": 2, "0-3,8,10-11": 7, "5": 1} {
		if got, err := countCPUList(in); err != nil || got != want {
			t.Errorf("countCPUList(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "a", "3-1", "0-", "-1", "0,,1"} {
		if n, err := countCPUList(in); err == nil {
			t.Errorf("countCPUList(%q) = %d, want an error", in, n)
		}
	}
}

func TestAutoEngineFollowsReservedCPUs(t *testing.T) {
	d, err := NewHTTPDialer("http://127.0.0.1:1", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	render := func() ([][]byte, error) { return [][]byte{[]byte("x")}, nil }
	for _, reserved := range []bool{false, true} {
		want := EngineGoroutines
		if reserved && epollAvailable {
			want = EngineEpoll
		}
		a, err := NewAttacker(d, render, WithRate(0), WithConnections(2), withCPUsReserved(func() bool { return reserved }))
		if err != nil {
			t.Fatal(err)
		}
		if a.meta.Engine != want {
			t.Errorf("reserved CPUs %v: engine %q, want %q", reserved, a.meta.Engine, want)
		}
		// Open loop keeps the goroutine engine whatever the CPUs.
		o, err := NewAttacker(d, render, WithRate(100), withCPUsReserved(func() bool { return reserved }))
		if err != nil {
			t.Fatal(err)
		}
		if o.meta.Engine != EngineGoroutines {
			t.Errorf("open loop, reserved CPUs %v: engine %q", reserved, o.meta.Engine)
		}
	}
}
