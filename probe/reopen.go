package probe

import (
	"context"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/dialect"
)

// A Reset in whole unix seconds leaves a window's length ambiguous by a
// second: a fresh key's first Reset lies between lo and lo + 1 seconds
// ahead, and both a window of lo + 1 whose end is cut to the second and a
// window of lo whose end is rounded up (Flask-Limiter writes int(expiry) +
// 1) give that. The refused key tells them apart: tried a quarter of a
// second after lo has passed since its first request, a window of lo has
// ended and one of lo + 1 has not.

// Reopened is that try.
type Reopened struct {
	Lo      int64 // the shorter of the two windows the first Reset allows
	Allowed bool  // the try was allowed: the window is Lo, not Lo + 1
	At      time.Duration
}

// reopenMargin is how long after lo the try is sent; the first answer must
// have come back faster than reopenMargin and its Reset lie at least
// 2·reopenMargin after the try, so that the try falls after the end of a
// window of lo and before the end of one of lo + 1 for every placement of
// the first request's decision.
const reopenMargin = 250 * time.Millisecond

// ambiguousAhead is lo when the fresh key's first Reset is in whole unix
// seconds a fraction of a second more than lo ahead, far enough from both
// ends for the try; ok false otherwise.
func ambiguousAhead(sn *Seen) (lo int64, ok bool) {
	if sn == nil || !sn.Obs.Has(dialect.FieldReset) || sn.Obs.Err != nil || sn.Ex.Received.Sub(sn.Ex.Sent) >= reopenMargin {
		return 0, false
	}
	d := sn.Obs.Reset.Sub(sn.Ex.Received)
	lo = int64(d / time.Second)
	frac := d - time.Duration(lo)*time.Second
	return lo, lo >= 2 && frac >= 2*reopenMargin+reopenMargin/2
}

// reopen tries the refused key once a window of lo has passed since its
// first request, where the first Reset leaves lo and lo + 1 open and the
// refusal says the key comes back when the first answer's window ends
// (a window, not a token). It records the try in f.Reopen.
func reopen(ctx context.Context, s *Session) error {
	f := &s.F
	lo, ok := ambiguousAhead(f.First)
	if !ok || f.Refusal == nil || s.Left() < 2+f.refillNeed() {
		return nil
	}
	back := f.Refusal.Ex.Received.Add(f.comesBack())
	if d := back.Sub(f.First.Obs.Reset); d < -time.Second || d > time.Second {
		return nil
	}
	at := f.First.Ex.Received.Add(time.Duration(lo)*time.Second + reopenMargin)
	wait := at.Sub(s.Now())
	if wait < 0 || wait > s.maxWait {
		return nil
	}
	if err := s.Wait(ctx, wait); err != nil {
		return err
	}
	sn, err := s.Send(ctx, "A", 0)
	if err != nil {
		return budgetNote(f, err, "the window's length to the second")
	}
	f.Reopen = &Reopened{Lo: lo, Allowed: sn.Allowed(), At: sn.Ex.Sent.Sub(f.First.Ex.Received)}
	return nil
}

// reopenWhy says what the try showed, for RL_WINDOW's reason.
func (r *Reopened) why() string {
	if r.Allowed {
		return fmt.Sprintf("the refused key was allowed again %s after its first request, a second before its Reset: the Reset is the window's end rounded up", r.At.Round(10*time.Millisecond))
	}
	return fmt.Sprintf("the refused key was still refused %s after its first request: the window is longer than %ds", r.At.Round(10*time.Millisecond), r.Lo)
}

// alignToSecond waits, where MAX_WAIT allows a second, until the clock is
// 50 to 200 ms past a whole second.
func alignToSecond(ctx context.Context, s *Session) error {
	if s.maxWait < time.Second {
		return nil
	}
	now := s.Now()
	frac := now.Sub(now.Truncate(time.Second))
	if frac >= 50*time.Millisecond && frac <= 200*time.Millisecond {
		return nil
	}
	return s.Wait(ctx, (time.Second+100*time.Millisecond-frac)%time.Second)
}
