package probe

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/dialect"
)

// Strategy is one experiment of a probe: it sends what it needs through
// the session (which refuses to exceed the budget) and records what it
// learnt in the session's Findings.
type Strategy interface {
	Run(ctx context.Context, s *Session) error
}

// Strategies are the probe's experiments in the order Run runs them:
// drain a fresh key, fill a queue where answers came back late, tell how
// clients are keyed, watch the quota come back, look again where part of
// it came back, tell a sliding log from a fixed window.
func Strategies() []Strategy {
	return []Strategy{Drain{Reserve: 2}, Queue{Reserve: 2}, Keys{}, Refill{}, Again{}, Spread{}}
}

// SetupError is a first answer that is not 2xx: nothing can be probed
// until the request itself is right (path, method, credentials, body).
// PRD says PROFILE=prd was given, whose requests are the PRD's rides.
type SetupError struct {
	Seen Seen
	PRD  bool
}

func (e *SetupError) Error() string {
	ex := e.Seen.Ex
	hint := "check TARGET_URL's path (or TARGET_PATH), TARGET_METHOD, TARGET_HEADERS and KEY"
	if e.PRD && ex.Status/100 == 4 {
		hint += "; PROFILE=prd sends the PRD's POST of a ride: for another API leave PROFILE unset"
	}
	return fmt.Sprintf("the first request (%s %s) was answered HTTP %d%s, not 2xx: %s", ex.Method, ex.URL, ex.Status, excerpt(ex.RespBody), hint)
}

// Drain sends requests on one fresh key until the first refusal, keeping
// Reserve requests of the budget for the strategies after it.
type Drain struct{ Reserve int }

// Run drains key A. Its first request leaves just after a whole second
// where MAX_WAIT allows: a Reset in whole unix seconds then lies most of
// a second past a window's whole seconds, which the reopen try needs.
func (d Drain) Run(ctx context.Context, s *Session) error {
	if err := alignToSecond(ctx, s); err != nil {
		return err
	}
	first, err := s.Send(ctx, "A", 0)
	if err != nil {
		return err
	}
	if !first.Allowed() {
		return &SetupError{Seen: first}
	}
	f := &s.F
	f.First, f.Allowed, f.LastAllowed = &first, 1, &first
	if first.Obs.Has(dialect.FieldLimit) && first.Obs.Err == nil {
		f.LimitHeader = first.Obs.Limit
	}
	for {
		left := s.Left() - d.Reserve
		if f.LimitHeader > 0 && int(f.LimitHeader)-f.Allowed+1 > left {
			f.unknown("the refusal (status, body, Retry-After): the limit is %d and seeing a refusal needs %d requests on one key, %d more than the budget of %d allows: PROBE_BUDGET=%d",
				f.LimitHeader, f.LimitHeader+1, int(f.LimitHeader)+1+d.Reserve-s.budget, s.budget, int(f.LimitHeader)+1+d.Reserve+f.refillNeed())
			return nil
		}
		if s.Left() <= 0 {
			f.unknown("the limit and the refusal: %d requests on one key were all allowed and the budget of %d is spent: a larger PROBE_BUDGET", f.Allowed, s.budget)
			return nil
		}
		sn, err := s.Send(ctx, "A", 0)
		if err != nil {
			return err
		}
		if sn.Allowed() {
			f.Allowed++
			f.LastAllowed = &sn
			if !heldBack(first, sn) {
				f.Delays = nil
				continue
			}
			if f.Delays = append(f.Delays, sn.Ex.Received.Sub(sn.Ex.Sent)); len(f.Delays) >= minDelayed {
				return nil // a queue: Queue fills it on a fresh key
			}
			continue
		}
		if sn.Ex.Status < 400 {
			return fmt.Errorf("request %d on a key that was allowed so far was answered HTTP %d, neither 2xx nor a refusal", s.Sent(), sn.Ex.Status)
		}
		if s.Answer.LimitedStatus == 0 && sn.Ex.Status != 429 {
			s.Answer.LimitedStatus = sn.Ex.Status
		}
		sn.Obs = s.Answer.Read(response(sn.Ex))
		s.Seen[len(s.Seen)-1] = sn
		f.Refusal = &sn
		return nil
	}
}

// Keys tells how clients are keyed once key A is refused: a fresh key from
// the same address (allowed: the key keys), then from another address
// (allowed: the address keys).
type Keys struct{}

// Run sends one or two requests.
func (Keys) Run(ctx context.Context, s *Session) error {
	f := &s.F
	if f.Refusal == nil {
		f.unknown("how clients are keyed: needs a refused key first")
		return nil
	}
	b, err := s.Send(ctx, "B", 0)
	if err != nil {
		return budgetNote(f, err, "how clients are keyed")
	}
	if b.Allowed() {
		f.Keying, f.KeyingHow = KeyedByKey, "a fresh key from the refused key's address was allowed"
		return nil
	}
	if !s.local {
		f.Keying = KeyedUnknown
		f.unknown("whether the client address keys clients: a fresh key from the same address was refused, and the target is not local, so the probe cannot send from another address")
		return nil
	}
	c, err := s.Send(ctx, "C", 1)
	if err != nil {
		return budgetNote(f, err, "whether the client address keys clients")
	}
	if c.Allowed() {
		f.Keying, f.KeyingHow = KeyedByAddress, "a fresh key from the refused key's address was refused, one from another address allowed"
		return nil
	}
	f.Keying, f.KeyingHow = KeyedShared, "fresh keys were refused from the refused key's address and from another one"
	return nil
}

// budgetNote turns a spent budget into a finding; other errors pass.
func budgetNote(f *Findings, err error, what string) error {
	if errors.Is(err, ErrBudget) {
		f.unknown("%s: the budget is spent (a larger PROBE_BUDGET)", what)
		return nil
	}
	return err
}

// Refill waits, within MAX_WAIT, until the refused key's Retry-After (or
// Reset) has passed by a second, then sends on it until refused again:
// how much came back, and the Reset of the new quota.
type Refill struct{}

// Run waits and sends.
func (Refill) Run(ctx context.Context, s *Session) error {
	f := &s.F
	if f.Refusal == nil || f.Queue != nil {
		return nil
	}
	back := f.comesBack()
	if back <= 0 {
		return poll(ctx, s)
	}
	if err := reopen(ctx, s); err != nil {
		return err
	}
	at := f.Refusal.Ex.Received.Add(back + time.Second)
	wait := max(at.Sub(s.Now()), 0)
	if err := s.Wait(ctx, wait); err != nil {
		if ctx.Err() != nil {
			return err
		}
		f.unknown("how the quota comes back (all at once, a window's worth, or a token at a time) and the window's length: it needs %s of waiting, more than MAX_WAIT=%s", wait.Round(time.Second), s.maxWait)
		return nil
	}
	r := &Refilled{Waited: wait}
	f.Refilled = r
	if err := countBack(ctx, s, r); err != nil {
		return err
	}
	if f.Reopen != nil && f.Reopen.Allowed && !r.Partial {
		r.Allowed++ // the try took one of the new window's places
	}
	return nil
}

// poll watches the refused key come back when the refusal does not say
// when: one request a second (each try within the budget, keeping enough
// to count what came back), then, at the first allowed, counts what came
// back as Refill does. The quota came back between the last refused try
// and the first allowed one.
func poll(ctx context.Context, s *Session) error {
	f := &s.F
	waited, refused := time.Duration(0), f.Refusal.Ex.Sent
	for {
		if s.Left() <= f.Allowed+1 {
			f.unknown("when the quota comes back: the refusal carries neither Retry-After nor a Reset, and the refused key was still refused after %s of trying once a second (a larger PROBE_BUDGET tries longer)", waited.Round(time.Second))
			return nil
		}
		if err := s.Wait(ctx, time.Second); err != nil {
			return err
		}
		waited += time.Second
		sn, err := s.Send(ctx, "A", 0)
		if err != nil {
			return budgetNote(f, err, "when the quota comes back")
		}
		if !sn.Allowed() {
			refused = sn.Ex.Sent
			continue
		}
		r := &Refilled{Waited: waited, First: &sn, Elapsed: sn.Ex.Received.Sub(f.LastAllowed.Ex.Received), Allowed: 1, Polled: true, StillRefused: refused}
		f.Refilled = r
		if sn.Obs.Has(dialect.FieldRemaining) && sn.Obs.Err == nil {
			r.Allowed = int(sn.Obs.Remaining) + 1
			return nil
		}
		return countBack(ctx, s, r)
	}
}

// countBack sends on the refused key until it is refused again, counting
// what came back into r (Remaining + 1 when the first answer says it).
func countBack(ctx context.Context, s *Session, r *Refilled) error {
	f := &s.F
	for {
		sn, err := s.Send(ctx, "A", 0)
		if errors.Is(err, ErrBudget) {
			r.Partial = true
			f.unknown("how much of the quota came back: the budget ran out after %d allowed (a larger PROBE_BUDGET)", r.Allowed)
			return nil
		}
		if err != nil {
			return err
		}
		if r.First == nil {
			r.First = &sn
			r.Elapsed = sn.Ex.Received.Sub(f.LastAllowed.Ex.Received)
			if sn.Allowed() && sn.Obs.Has(dialect.FieldRemaining) && sn.Obs.Err == nil {
				r.Allowed = int(sn.Obs.Remaining) + 1
				return nil
			}
		}
		if !sn.Allowed() {
			return nil
		}
		r.Allowed++
	}
}
