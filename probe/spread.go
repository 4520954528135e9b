package probe

import (
	"context"
	"errors"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
)

// Spread tells a sliding log from a fixed window opened by the first
// request, which answer a burst alike, and both from windows on a grid
// whose first key happened to start near a window's start: one request
// on a fresh key, a second fresh key and the rest of the first's limit
// half a window later, then, once the first request's
// window has passed, what is allowed — a new window's whole limit, or the
// one place the first request left in a sliding log. It runs only where
// the answers so far fit both, and only within MAX_WAIT and the budget.
type Spread struct{}

// Spreading is what Spread saw.
type Spreading struct {
	Window time.Duration
	Filled int // allowed half a window after the first request
	After  int // allowed once the first request's window had passed
	// Moved is how far the Reset of the last request allowed half a
	// window later lies after the first request's (0: not later, or no
	// Reset): a window whose end each request extends.
	Moved time.Duration
}

// Elastic says nothing came back once the first request's window had
// passed although no request of the key was refused: not a sliding log,
// where the first request's place comes back, nor a fixed window, where
// the whole limit does, but a window whose end the later requests moved
// (Flask-Limiter's fixed-window-elastic-expiry).
func (sp *Spreading) Elastic() bool { return sp.After == 0 }

// Run sends on key D.
func (Spread) Run(ctx context.Context, s *Session) error {
	f := &s.F
	if f.Refusal == nil || s.design().profile != profile.FixedWindow || s.design().align != profile.AlignFirstRequest {
		return nil
	}
	w, _ := s.window(profile.AlignFirstRequest, nil)
	n := f.Allowed
	need := 3 + n
	if !f.First.Obs.Has(dialect.FieldRemaining) {
		need = 2*n + 3
	}
	half := (w / 2).Round(time.Second)
	switch {
	case w < 2*time.Second:
		return nil
	case w-half+time.Second > s.maxWait || half > s.maxWait:
		return nil // Suggest says how long it would take
	case need > s.Left():
		return nil
	}
	first, err := s.Send(ctx, "D", 0)
	if err != nil {
		return budgetNote(f, err, "a sliding log or a fixed window")
	}
	if !first.Allowed() {
		return nil
	}
	sp := &Spreading{Window: w}
	if err := s.Wait(ctx, half); err != nil {
		return err
	}
	// A fresh key half a window later: on a grid its Reset lies less
	// than a window ahead at one of the two instants at least.
	if _, err := s.Send(ctx, "E", 0); err != nil {
		return budgetNote(f, err, "a sliding log or a fixed window")
	}
	if _, epoch := s.epochWindow(); epoch {
		return nil
	}
	for sp.Filled < n-1 {
		sn, err := s.Send(ctx, "D", 0)
		if err != nil {
			return budgetNote(f, err, "a sliding log or a fixed window")
		}
		if !sn.Allowed() {
			break
		}
		sp.Filled++
		if r1, ok := unixReset(&first); ok {
			if r2, ok := unixReset(&sn); ok && r2 > r1 {
				sp.Moved = time.Duration(r2-r1) * time.Second
			}
		}
	}
	at := first.Ex.Sent.Add(w + time.Second)
	if err := s.Wait(ctx, max(at.Sub(s.Now()), 0)); err != nil {
		return err
	}
	for {
		sn, err := s.Send(ctx, "D", 0)
		if errors.Is(err, ErrBudget) {
			break
		}
		if err != nil {
			return err
		}
		if !sn.Allowed() {
			break
		}
		sp.After++
		if sn.Obs.Has(dialect.FieldRemaining) && sn.Obs.Err == nil {
			sp.After += int(sn.Obs.Remaining)
			break
		}
	}
	f.Spread = sp
	return nil
}
