package scenario

import (
	"context"
	"testing"
	"time"
)

// A lone scenario holds back the scenarios after it in the order, and
// none before it; it is done when all of its rows have ended.
func TestTurnsOrderTheLoneScenarios(t *testing.T) {
	tr := NewTurns([]string{"A-01", "L-01", "L-01", "B-01", "M-01", "C-01"}, func(id string) bool { return id == "L-01" || id == "M-01" })
	for id, want := range map[string]int{"A-01": 0, "L-01": 0, "B-01": 1, "M-01": 1, "C-01": 2, "unknown": 0} {
		if got := len(tr.before(id)); got != want {
			t.Errorf("%s waits for %d lone scenarios, want %d", id, got, want)
		}
	}
	done := tr.before("B-01")[0]
	tr.end("L-01")
	select {
	case <-done:
		t.Fatal("L-01 done after one of its two rows")
	default:
	}
	tr.end("L-01")
	<-done // closed: B-01 may start
	tr.end("M-01")
	tr.wait(context.Background(), "C-01", time.Hour) // returns: both ended
	var none *Turns
	none.wait(context.Background(), "C-01", time.Hour)
	none.end("L-01")
}

// A lone scenario that never ends (godog did not run it) holds the others
// back only until the limit, or until the run is cancelled.
func TestTurnsNeverHangs(t *testing.T) {
	tr := NewTurns([]string{"L-01", "B-01"}, func(id string) bool { return id == "L-01" })
	tr.wait(context.Background(), "B-01", time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tr.wait(ctx, "B-01", time.Hour)
}
