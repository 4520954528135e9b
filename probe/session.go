package probe

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
)

// Target sends one request to the endpoint under probe: keyed by key (""
// carries no key) from client address number client (0 or 1: two distinct
// addresses, where the target is local).
type Target interface {
	Send(ctx context.Context, key string, client int) *httpclient.Exchange
}

// Clock is the probe's time: Now, and Wait for the target's windows to
// pass (a fake clock in tests advances instead of waiting).
type Clock interface {
	Now() time.Time
	Wait(ctx context.Context, d time.Duration) error
}

// WallClock is the real time.
type WallClock struct{}

var _ Clock = WallClock{}

// Now is time.Now.
func (WallClock) Now() time.Time { return time.Now() }

// Wait returns after d, or early with ctx's error.
func (WallClock) Wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// ErrBudget is what Send returns once the budget is spent.
var ErrBudget = errors.New("the request budget is spent")

// Seen is one exchange of the probe and how its answer reads.
type Seen struct {
	Key    string // "A", "B", … : which of the probe's keys ("" none)
	Client int
	Ex     *httpclient.Exchange
	Obs    dialect.Observation
}

// Allowed reports a 2xx answer.
func (s Seen) Allowed() bool { return s.Ex.Err == nil && s.Ex.Status/100 == 2 }

// Session is one probe: the target, the budget it may spend, the time it
// may wait, how answers are read, and everything seen so far.
type Session struct {
	target  Target
	clock   Clock
	budget  int
	maxWait time.Duration
	waited  time.Duration
	// Answer is how answers are read: the settings given, then what the
	// first answer was detected to speak.
	Answer dialect.Settings
	keys   map[string]string // probe key name → the key's value
	newKey func() string
	local  bool
	Seen   []Seen
	F      Findings
}

// Sent is how many requests the session has sent.
func (s *Session) Sent() int { return len(s.Seen) }

// Left is how many requests the budget still allows.
func (s *Session) Left() int { return s.budget - len(s.Seen) }

// Send sends one request with the probe key name (a fresh value per name)
// from client, or returns ErrBudget without sending once the budget is
// spent; a transport failure is an error too.
func (s *Session) Send(ctx context.Context, name string, client int) (Seen, error) {
	if s.Left() <= 0 {
		return Seen{}, ErrBudget
	}
	key := ""
	if name != "" {
		if _, ok := s.keys[name]; !ok {
			s.keys[name] = s.newKey()
		}
		key = s.keys[name]
	}
	ex := s.target.Send(ctx, key, client)
	sn := Seen{Key: name, Client: client, Ex: ex}
	s.Seen = append(s.Seen, sn)
	if ex.Err != nil {
		return sn, fmt.Errorf("request %d: %w", len(s.Seen), ex.Err)
	}
	if len(s.Seen) == 1 {
		d := s.Answer.Detect(response(ex))
		s.F.Detection, s.Answer = d, d.Settings
	}
	sn.Obs = s.Answer.Read(response(ex))
	s.Seen[len(s.Seen)-1] = sn
	return sn, nil
}

// Wait waits d if it is no longer than MAX_WAIT.
func (s *Session) Wait(ctx context.Context, d time.Duration) error {
	if d > s.maxWait {
		return fmt.Errorf("waiting %s exceeds MAX_WAIT=%s", d.Round(time.Second), s.maxWait)
	}
	s.waited += d
	return s.clock.Wait(ctx, d)
}

// Now is the session's clock.
func (s *Session) Now() time.Time { return s.clock.Now() }

func response(ex *httpclient.Exchange) dialect.Response {
	return dialect.Response{Status: ex.Status, Header: ex.RespHeader, Body: ex.RespBody, Received: ex.Received}
}
