package scenario

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/httpclient"
)

// noAnswer is a Sender whose requests get no answer: each has a deadline a
// second on, and fails with err late after it.
type noAnswer struct {
	t0   time.Time
	late time.Duration
	err  error
}

func (c noAnswer) Do(_ context.Context, _ httpclient.Request) *httpclient.Exchange {
	return &httpclient.Exchange{Sent: c.t0, Deadline: c.t0.Add(time.Second), Received: c.t0.Add(time.Second + c.late), Err: c.err}
}

// A request given up on at its deadline is a violation (FR-7) where
// rlspec ran when the deadline came; where it could not run then, the
// verdict rests on a broken assumption (the answer may have been there). A
// request that failed before its deadline rests on no timing.
func TestUnansweredRequestNeedsARunningHarness(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	timeout, closed := errors.New("no response within 1s"), errors.New("connection reset")
	for _, c := range []struct {
		name   string
		late   time.Duration // after the deadline
		err    error
		lost   time.Duration
		broken string
	}{
		{"rlspec ran at the deadline", 0, timeout, 0, ""},
		{"rlspec stalled over the deadline", 30 * time.Millisecond, timeout, 30 * time.Millisecond, "could not run for 30ms from the deadline"},
		{"connection closed before the deadline", -900 * time.Millisecond, closed, 30 * time.Millisecond, ""},
	} {
		env := &Env{Stalls: func(from, to time.Time) time.Duration {
			if !from.Equal(t0.Add(time.Second)) || !to.Equal(t0.Add(time.Second+c.late)) {
				t.Errorf("%s: stalls asked for [%s, %s], want from the deadline to the failure", c.name, from, to)
			}
			return c.lost
		}}
		s := New(context.Background(), env)
		_, err := s.Send(noAnswer{t0, c.late, c.err}, httpclient.Request{})
		var v *Violation
		if !errors.As(err, &v) {
			t.Fatalf("%s: err = %v, want a violation", c.name, err)
		}
		s.Fail(err)
		if got := s.Broken(); c.broken == "" && got != "" || c.broken != "" && !strings.Contains(got, c.broken) {
			t.Errorf("%s: broken %q, want %q", c.name, got, c.broken)
		}
	}
}
