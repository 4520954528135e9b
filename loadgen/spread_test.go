package loadgen

import (
	"context"
	"testing"
	"time"
)

// TestSpreadDialerTakesTurns: n×k dials reach each of n dialers k times,
// in turn.
func TestSpreadDialerTakesTurns(t *testing.T) {
	if _, err := NewSpreadDialer(); err == nil {
		t.Error("a spread dialer over no dialer was made")
	}
	ds := []*fakeDialer{{}, {}, {}}
	sd, err := NewSpreadDialer(ds[0], ds[1], ds[2])
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		if _, err := sd.Dial(context.Background()); err != nil {
			t.Fatal(err)
		}
		if got := ds[i%3].dials; got != i/3+1 {
			t.Fatalf("dial %d: dialer %d dialed %d times, want %d", i, i%3, got, i/3+1)
		}
	}
}

// TestSpreadDialerUnderAttack: the connections of a closed loop through a
// spread dialer over two are shared between them (each dialed as often as
// the other, give or take the one dial in progress).
func TestSpreadDialerUnderAttack(t *testing.T) {
	ds := []*fakeDialer{{}, {}}
	sd, err := NewSpreadDialer(ds[0], ds[1])
	if err != nil {
		t.Fatal(err)
	}
	res := runAttack(t, sd, fixedRequests(3), WithRate(0), WithConnections(4), WithDuration(50*time.Millisecond), WithWarmup(0))
	if d0, d1 := ds[0].dials, ds[1].dials; res.Totals.Requests() == 0 || d0 == 0 || d0 < d1 || d0 > d1+1 {
		t.Fatalf("%d requests; dials %d and %d, want the first dialed as often as the second or once more", res.Totals.Requests(), d0, d1)
	}
}
