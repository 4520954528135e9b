package reference

import (
	"context"
	"testing"
	"time"
)

// Each deliberate defect must really break its clause; these tests are also
// what shows the clause tests above can fail.

func allowedCount(ds []Decision) (n int, distinct bool) {
	seen := map[int]bool{}
	distinct = true
	for _, d := range ds {
		if d.Outcome == Allowed {
			n++
			if seen[d.Remaining] {
				distinct = false
			}
			seen[d.Remaining] = true
		}
	}
	return n, distinct
}

func TestBugCheckThenActOversells(t *testing.T) {
	// The race is real but scheduling-dependent: a few attempts.
	for attempt := 0; attempt < 5; attempt++ {
		s, _ := openTest(t, WithLimit(20), WithBugs(Bugs{CheckThenAct: true}))
		ds := concurrent(t, s, 200, func(int) Request { return req(bucket(attempt)) })
		if n, distinct := allowedCount(ds); n > 20 || !distinct {
			t.Logf("attempt %d: %d allowed (limit 20), distinct Remaining %v", attempt, n, distinct)
			return
		}
	}
	t.Fatal("check-then-act never oversold in 5 attempts")
}

func TestBugReplaySpends(t *testing.T) {
	s, _ := openTest(t, WithBugs(Bugs{ReplaySpends: true}))
	b := bucket(1)
	mustDecide(t, s, keyed(b, "k", "x"))
	if d := mustDecide(t, s, keyed(b, "k", "x")); d.Outcome != Replayed || d.Remaining != 498 {
		t.Fatalf("replay %+v", d)
	}
}

func TestBugConcurrentReplaysEachSpend(t *testing.T) {
	for attempt := 0; attempt < 5; attempt++ {
		s, _ := openTest(t, WithBugs(Bugs{ConcurrentReplays: true}))
		ds := concurrent(t, s, 32, func(int) Request { return keyed(bucket(attempt), "same", "x") })
		if n, _ := allowedCount(ds); n > 1 {
			t.Logf("attempt %d: %d spends for one key", attempt, n)
			return
		}
	}
	t.Fatal("concurrent identical requests never spent twice")
}

func TestBugReplayIgnoresBody(t *testing.T) {
	s, _ := openTest(t, WithBugs(Bugs{ReplayIgnoresBody: true}))
	mustDecide(t, s, keyed(bucket(1), "k", "one"))
	if d := mustDecide(t, s, keyed(bucket(1), "k", "two")); d.Outcome != Replayed {
		t.Fatalf("%v", d.Outcome)
	}
}

func TestBugResetVariants(t *testing.T) {
	exhaust := func(s *Store, clk *FakeClock) {
		mustDecide(t, s, req(bucket(1)))
		clk.Advance(11 * time.Second)
	}
	t.Run("no-reset", func(t *testing.T) {
		s, clk := openTest(t, WithLimit(1), WithWindow(10*time.Second), WithBugs(Bugs{NoReset: true}))
		exhaust(s, clk)
		if d := mustDecide(t, s, req(bucket(1))); d.Outcome != Limited {
			t.Fatalf("%v", d.Outcome)
		}
	})
	t.Run("reset-keeps-reset", func(t *testing.T) {
		s, clk := openTest(t, WithLimit(1), WithWindow(10*time.Second), WithBugs(Bugs{ResetKeepsReset: true}))
		exhaust(s, clk)
		if d := mustDecide(t, s, req(bucket(1))); d.Outcome != Allowed || d.Reset >= clk.Now().Unix() {
			t.Fatalf("%+v", d)
		}
	})
	t.Run("429-pushes-window", func(t *testing.T) {
		s, clk := openTest(t, WithLimit(1), WithWindow(10*time.Second), WithBugs(Bugs{LimitedPushesWindow: true}))
		first := mustDecide(t, s, req(bucket(1)))
		clk.Advance(5 * time.Second)
		if d := mustDecide(t, s, req(bucket(1))); d.Outcome != Limited || d.Reset == first.Reset {
			t.Fatalf("%+v", d)
		}
	})
	t.Run("reset-race", func(t *testing.T) {
		for attempt := 0; attempt < 5; attempt++ {
			s, clk := openTest(t, WithLimit(5), WithWindow(10*time.Second), WithBugs(Bugs{ResetRace: true}))
			b := bucket(attempt)
			mustDecide(t, s, req(b))
			clk.Advance(11 * time.Second)
			ds := concurrent(t, s, 50, func(int) Request { return req(b) })
			if n, _ := allowedCount(ds); n > 5 {
				t.Logf("attempt %d: %d allowed in the new window (limit 5)", attempt, n)
				return
			}
		}
		t.Fatal("reset-race never refilled twice")
	})
}

// ProcessCache is correct within one process (it oversells across
// processes: see TestMultiProcessSpends).
func TestBugProcessCacheCorrectInOneProcess(t *testing.T) {
	s, _ := openTest(t, WithLimit(100), WithBugs(Bugs{ProcessCache: true}))
	ds := concurrent(t, s, 300, func(int) Request { return req(bucket(1)) })
	checkSpends(t, ds, 100, 100)
	if _, err := s.Cleanup(context.Background()); err != nil {
		t.Fatal(err)
	}
}
