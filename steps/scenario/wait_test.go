package scenario

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"
	"github.com/rlspec/rlspec/httpclient"
)

// recordingAger records the ages it was asked for.
type recordingAger struct {
	keys []string
	ages []time.Duration
}

func (a *recordingAger) Age(_ context.Context, key string, d time.Duration) error {
	a.keys, a.ages = append(a.keys, key), append(a.ages, d)
	return nil
}

// TestWaitAgesTheKey: with an Ager, a keyed scenario's wait ages the key
// by the time left instead of sleeping, its clock moves on by as much,
// and exchanges recorded afterwards carry the moved clock; without a key
// nothing is aged.
func TestWaitAgesTheKey(t *testing.T) {
	wall := time.Unix(1_700_000_000, 0)
	ager := &recordingAger{}
	s := New(context.Background(), &Env{Ager: ager, Now: func() time.Time { return wall }})
	s.AgeWith(func() string { return "k1" })
	if err := s.WaitUntil(wall.Add(59 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if len(ager.ages) != 1 || ager.ages[0] != 59*time.Second || ager.keys[0] != "k1" {
		t.Fatalf("ages %v of %v, want one of 59s for k1", ager.ages, ager.keys)
	}
	if !s.Now().Equal(wall.Add(59 * time.Second)) {
		t.Errorf("the scenario's clock reads %s, want 59 s on", s.Now().Sub(wall))
	}
	if err := s.WaitUntil(wall.Add(time.Second)); err != nil || len(ager.ages) != 1 {
		t.Errorf("a wait for a time already passed aged: %v %v", ager.ages, err)
	}
	ex := &httpclient.Exchange{Sent: wall, Received: wall.Add(time.Millisecond)}
	s.Record(ex)
	if ex.Sent.Sub(wall) != 59*time.Second || ex.Received.Sub(ex.Sent) != time.Millisecond {
		t.Errorf("recorded exchange at %s … %s, want moved by 59 s", ex.Sent.Sub(wall), ex.Received.Sub(wall))
	}
	anon := New(context.Background(), &Env{Ager: ager, Now: func() time.Time { return wall }})
	if anon.Ageable() {
		t.Error("a scenario without a key ages")
	}
}

// TestDeadlineWhileWaitingIsNoVerdict: the scenario's own deadline passing
// during a wait skips it as "could not decide" — never a failure of the
// target; a cancelled run stays an error.
func TestDeadlineWhileWaitingIsNoVerdict(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	s := New(ctx, &Env{Now: time.Now})
	err := s.WaitUntil(time.Now().Add(time.Hour))
	if !errors.Is(err, godog.ErrSkip) || !strings.Contains(err.Error(), "could not decide") {
		t.Fatalf("deadline while waiting: %v, want a skip that could not decide", err)
	}
	cctx, ccancel := context.WithCancel(context.Background())
	ccancel()
	s = New(cctx, &Env{Now: time.Now})
	if err := s.WaitUntil(time.Now().Add(time.Hour)); err == nil || errors.Is(err, godog.ErrSkip) {
		t.Fatalf("cancelled while waiting: %v, want an error that is no skip", err)
	}
}

// TestWaitBeyondMaxWaitSkips: a wait on the wall clock longer than
// MAX_WAIT is a skip saying so, at once.
func TestWaitBeyondMaxWaitSkips(t *testing.T) {
	s := New(context.Background(), &Env{Now: time.Now, MaxWait: time.Second})
	err := s.WaitUntil(time.Now().Add(time.Hour))
	if !errors.Is(err, godog.ErrSkip) || !strings.Contains(err.Error(), "longer than MAX_WAIT=1s") {
		t.Fatalf("an hour's wait with MAX_WAIT=1s: %v", err)
	}
}
