package swcounter

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// start is how far into a grid window the steps that begin there send
// their first request: clear of the boundary by more than a whole-second
// clock's rounding of a boundary on whole seconds (none) and the
// harness's own scheduling.
const start = 100 * time.Millisecond

// registerCounter registers the checks of profile sliding-window-counter
// SWC-1, SWC-2 and SWC-4 on the epoch's grid of W.
func (s *state) registerCounter(sc scenario.Stepper) {
	sc.Step(`^a grid window with at least W/2 left is under way$`, func() error { return s.windowUnderWay(s.Window() / 2) })
	sc.Step(`^a grid window with at least (\d+(?:\.\d+)?) seconds left is under way$`, func(sec float64) error {
		return s.windowUnderWay(time.Duration(sec * float64(time.Second)))
	})
	sc.Step(`^N\+(\d+) requests of the key are sent one after another$`, s.sequential)
	sc.Step(`^exactly N of them were allowed, all within one grid window$`, s.exactlyNInWindow)
	sc.Step(`^N requests of the key are allowed at once in a grid window$`, s.spendInWindow)
	sc.Step(`^1 second into the next window N−1 requests of the key are sent at once, and 2 more at once 2 seconds after them$`, s.earlyInNext)
	sc.Step(`^no allowed request of the key found the weighted count at N \+ 1 or more$`, s.weightedBound)
}

// windowUnderWay makes sure a window of the key's grid is under way with
// at least left to go (at most W less start): the window of now when it
// does and began start or more ago, else the next one, waited for. A
// fresh key's grid under key-grid is not known before its first request:
// it waits for the second that anchors it.
func (s *state) windowUnderWay(left time.Duration) error {
	left = min(left, s.Window()-start)
	if s.align() != profile.AlignKeyGrid || s.Key.Runs != nil {
		if err := s.knowGrid(); err != nil {
			return err
		}
		now := s.Now()
		cur := s.gridStart(now)
		if !now.Before(cur.Add(start)) && cur.Add(s.Window()).Sub(now) >= left {
			return nil
		}
	}
	return s.windowBegins()
}

// windowBegins waits for the next window of the key's grid to begin (and
// start more).
func (s *state) windowBegins() error {
	next, err := s.nextGridStart()
	if err != nil {
		return err
	}
	next = next.Add(start)
	if err := s.FitsMaxWait(next.Sub(s.Now()), "waiting for a grid window to begin"); err != nil {
		return err
	}
	return s.WaitUntil(next)
}

// sequential sends N+k requests of the key one after another as one run
// and the last batch.
func (s *state) sequential(k int) error {
	run, err := s.SendRun(s.Limit() + k)
	s.Batch = scenario.Batch{Exchanges: run, Sent: len(run)}
	return err
}

// exactlyNInWindow is SWC-1 (and SWC-4 for a concurrent batch) on the
// last batch of a fresh key: exactly N allowed, the rest refused. Fewer
// than N is a violation whatever the timing (e ≤ the allowed count so far,
// below N); more rests on the batch lying in one grid window for every
// placement of its decisions: its first send and last receipt in one
// window of the epoch's grid (a whole-second clock moves no boundary of
// whole-second windows).
func (s *state) exactlyNInWindow() error {
	exs := s.Batch.Exchanges
	allowed := 0
	for _, ex := range exs {
		if ex.Status/100 == 2 {
			allowed++
		} else if !ex.Refused() {
			return scenario.Violate(s.Refs(), "each request is allowed or refused", "2xx or 429", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
	}
	if allowed > s.Limit() {
		s.assumeOneWindow(exs)
	}
	if allowed != s.Limit() {
		return scenario.Violate(s.Refs(), fmt.Sprintf("%d requests of a fresh key in one grid window", len(exs)),
			fmt.Sprintf("exactly %d allowed", s.Limit()), fmt.Sprintf("%d allowed", allowed), exs...)
	}
	return nil
}

// assumeOneWindow: exs lay in one window of the epoch's grid.
func (s *state) assumeOneWindow(exs []*httpclient.Exchange) {
	first, last := scenario.Span(exs)
	s.Assume("the batch within one grid window", func() string {
		if !s.gridStart(first).Equal(s.gridStart(last)) {
			return fmt.Sprintf("the requests ran from %s to %s, across a boundary of the grid of %s",
				first.Format("15:04:05.000"), last.Format("15:04:05.000"), s.Window())
		}
		return ""
	})
}

// spendInWindow sends N requests of the fresh key (each allowed: a fresh
// key's first N always are) in a grid window, at least 1.1 s after it
// began and, so that they are counted in it, coming back more than 1 s
// before it ends: now if the window under way leaves that room, else 1.1
// s into the next one. earlyInNext then needs more than 4.1 s of the
// following window, so below 5 s the scenario could only skip at its end.
func (s *state) spendInWindow() error {
	tol := bound.DefaultTolerance
	if s.Window() < 5*tol {
		return scenario.Skip("SWC-2 can only be decided with a margin of 1 s either side of each decision when W is at least 5 s; RL_WINDOW=%s", s.Window())
	}
	if s.align() == profile.AlignKeyGrid {
		// the key's grid is anchored by its first request: one, at the
		// start of a window before the one the N are sent in
		if err := s.windowBegins(); err != nil {
			return err
		}
		if _, err := s.SendRun(1); err != nil {
			return err
		}
	}
	at, err := s.spendAt(tol + tol/10)
	if err != nil {
		return err
	}
	if err := s.FitsMaxWait(at.Sub(s.Now())+s.Window(), "a grid window and the next"); err != nil {
		return err
	}
	if err := s.WaitUntil(at); err != nil {
		return err
	}
	return s.NAllowedAtOnce()
}

// spendAt is when spendInWindow sends: lead into a window of the key's
// grid and 1.5 s before its end (the N's time and the 1 s a decision may
// lie after its receipt), in the window under way where it can.
func (s *state) spendAt(lead time.Duration) (time.Time, error) {
	if s.align() != profile.AlignKeyGrid {
		if err := s.knowGrid(); err != nil {
			return time.Time{}, err
		}
		now := s.Now()
		cur := s.gridStart(now)
		last := cur.Add(s.Window() - bound.DefaultTolerance*3/2)
		switch {
		case now.Before(cur.Add(lead)) && !cur.Add(lead).After(last):
			return cur.Add(lead), nil
		case !now.Before(cur.Add(lead)) && !now.After(last):
			return now, nil
		}
	}
	next, err := s.nextGridStart()
	return next.Add(lead), err
}

// earlyInNext waits until 1 s after the next grid window began and sends
// N−1 requests of the key one after another, then 2 more once 2 s passed
// after the last of those came back. The checker orders two decisions
// only when their intervals (1 s either side) do not overlap: the later
// requests find the N − 1 counted, and the previous window's N weighing
// about 1 − 4.3/W of their count. A counter that forgets the previous
// window allows the last of the N − 1 at e ≥ N + 1 (N·(1 − 2.1/W) ≥ 3),
// and the last two too when N·(1 − 4.3/W) ≥ 2 (W ≥ 6 s, N ≥ 10, e.g.).
func (s *state) earlyInNext() error {
	spent := s.Key.Runs[len(s.Key.Runs)-1]
	tol := bound.DefaultTolerance
	if err := s.WaitUntil(s.gridStart(spent[0].Sent).Add(s.Window() + tol)); err != nil {
		return err
	}
	first, err := s.SendAtOnce(s.Limit() - 1)
	if err != nil {
		return err
	}
	_, back := scenario.Span(first)
	if err := s.WaitUntil(back.Add(2*tol + tol/10)); err != nil {
		return err
	}
	then, err := s.SendAtOnce(2)
	if err != nil {
		return err
	}
	s.Assume("the runs certainly in two grid windows", func() string { return s.straddles(spent, first, then) })
	return nil
}

// straddles is the assumption of a pass of SWC-2-01: the checker counts a
// request only in the one window its decision certainly lies in (send − 1
// s to receipt + 1 s), so a pass shows something only when the run of N
// lay certainly in one window, the early ones certainly in the next, and
// the last two 2 s after the N − 1. A violation found rests on no timing.
func (s *state) straddles(spent, first, then []*httpclient.Exchange) string {
	var v *scenario.Violation
	if errors.As(s.Err(), &v) && !v.Precondition {
		return ""
	}
	tol := bound.DefaultTolerance
	next := s.gridStart(spent[0].Sent).Add(s.Window())
	in := func(exs []*httpclient.Exchange, start time.Time) bool {
		from, to := scenario.Span(exs)
		return !from.Add(-tol).Before(start) && to.Add(tol).Before(start.Add(s.Window()))
	}
	if !in(spent, next.Add(-s.Window())) || !in(first, next) || !in(then, next) {
		return "a run came within 1 s of a grid boundary (a starved machine stretched it)"
	}
	if _, to := scenario.Span(first); !to.Add(2 * tol).Before(then[0].Sent) {
		return "the last two requests went out less than 2 s after the N − 1 before them came back"
	}
	return ""
}

// weightedBound is SWC-2 on every exchange of the scenario (package
// bound), with the lower bound of a fresh key: its first N are allowed
// whatever their windows. The scenario's note is the largest count seen
// allowed in a span of W.
func (s *state) weightedBound() error {
	s.noteLargest()
	if err := s.BoundViolation(bound.WindowCounter(s.gridEvents(), s.Limit(), s.Window(), bound.DefaultTolerance)); err != nil {
		return err
	}
	return s.FreshKeyAllowed(s.Limit())
}

// noteLargest states, beside the verdict, the largest count of the key's
// allowed requests that certainly fell within one span of W (W less the
// server clock's tolerance, as FW-2 measures it), beside N: how far the
// counter is from a true sliding log, which allows N.
func (s *state) noteLargest() {
	largest, _ := bound.Burst(s.Events(), math.MaxInt, s.Window(), bound.DefaultTolerance)
	s.SetNote(fmt.Sprintf("largest count allowed in a span of W: %d within %s (N = %d; a sliding log allows N)", largest, s.Window()-bound.DefaultTolerance, s.Limit()))
}
