package scenario

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/httpclient"
)

// noAnswer is a Sender whose requests get no answer: each gives up after
// a second.
type noAnswer struct{ t0 time.Time }

func (c noAnswer) Do(_ context.Context, _ httpclient.Request) *httpclient.Exchange {
	return &httpclient.Exchange{Sent: c.t0, Received: c.t0.Add(time.Second), Err: errors.New("no response within 1s")}
}

// A request left without an answer is a violation (FR-7) where rlspec ran
// in the second before it gave up; where it could not run then, the
// verdict rests on a broken assumption (the answer may have been there).
func TestUnansweredRequestNeedsARunningHarness(t *testing.T) {
	t0 := time.Unix(1_800_000_000, 0)
	for _, c := range []struct {
		name   string
		lost   time.Duration
		broken string
	}{
		{"rlspec ran", 0, ""},
		{"rlspec stalled before it gave up", 30 * time.Millisecond, "could not run for 30ms"},
	} {
		env := &Env{Stalls: func(from, to time.Time) time.Duration {
			if !from.Equal(t0) || !to.Equal(t0.Add(time.Second)) {
				t.Errorf("%s: stalls asked for [%s, %s], want the second before giving up", c.name, from, to)
			}
			return c.lost
		}}
		s := New(context.Background(), env)
		_, err := s.Send(noAnswer{t0}, httpclient.Request{})
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
