package scenario

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// WaitUntil waits for the clock to reach t, or the scenario's deadline.
func (s *State) WaitUntil(t time.Time) error {
	if s.env.Wait != nil {
		return s.env.Wait(s.ctx, t)
	}
	if s.Ageable() {
		return s.age(t)
	}
	d := t.Sub(s.env.Clock())
	if d <= 0 {
		return nil
	}
	if err := s.MayWaitUntil(t); err != nil {
		return err
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-s.ctx.Done():
		return couldNotDecide(s.ctx, d)
	}
}

// MayWaitUntil is a skip when reaching t on the wall clock would take
// longer than MAX_WAIT (a scenario that needs longer is SKIPPED with that
// reason, the target contract says), nil otherwise or when the wait is
// not on the wall clock (Env.Wait, a key that ages).
func (s *State) MayWaitUntil(t time.Time) error {
	if s.env.Wait != nil || s.Ageable() {
		return nil
	}
	if d, most := t.Sub(s.env.Clock()), s.env.MaxWait; most > 0 && d > most {
		return Skip("needs to wait %s, longer than MAX_WAIT=%s", d.Round(time.Second), most)
	}
	return nil
}

// couldNotDecide is the skip of a scenario whose own deadline passed while
// it waited d: rlspec running out of its time is not the target failing a
// clause (a starved machine, issue 27), so the scenario says it could not
// decide. An interrupt (the run cancelled) stays an error.
func couldNotDecide(ctx context.Context, d time.Duration) error {
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("interrupted while waiting: %w", ctx.Err())
	}
	dl, _ := ctx.Deadline()
	return Skip("could not decide: the scenario's deadline (%s) passed while it waited %s; "+
		"the target failed no clause (raise MAX_WAIT, or run on a less loaded machine)", dl.Format(time.RFC3339), d.Round(time.Millisecond))
}

// Stalled is how long rlspec's own process could not run within
// [from, to], as Env.Stalls measured it (0 where it does not).
func (s *State) Stalled(from, to time.Time) time.Duration {
	if s.env.Stalls == nil {
		return 0
	}
	return s.env.Stalls(from, to)
}
