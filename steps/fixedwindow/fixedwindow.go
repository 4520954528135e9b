package fixedwindow

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"time"

	"github.com/cucumber/godog"
	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerFixedWindow registers the checks of profile fixed-window (FW-1 …
// FW-7) for both WINDOW_ALIGN values: waits aimed at a window's start or
// end, the per-window and boundary-burst bounds (package bound), the
// headers, the 429 and the address fallback.
func (s *state) registerFixedWindow(sc scenario.Stepper) {
	sc.Step(`^the key's window has (\d+) ms left$`, s.windowHasLeft)
	sc.Step(`^the key's window is (\d+) ms old$`, s.windowIsOld)
	sc.Step(`^an epoch window is (\d+) ms old$`, s.epochWindowIsOld)
	sc.Step(`^the key spends the rest of its window at once$`, s.spendRest)
	sc.Step(`^the window ends$`, s.windowEnds)
	sc.Step(`^N\+(\d+) requests are sent with the key one after another$`, s.nPlusSequential)
	sc.Step(`^no window held more than N allowed requests of the key$`, s.fixedBound)
	sc.Step(`^no span of length W held more allowed requests than the boundary bound$`, s.boundaryBurst)
	sc.Step(`^every response carried Limit N, Remaining N minus the allowed requests so far, and Reset at the window's end$`, s.fixedHeaders)
	sc.Step(`^the 429 matches LIMITED_BODY$`, s.fixed429)
	sc.Step(`^the next request without the key is refused with 429, or allowed with anonymous-open$`, s.anonymousNext)
}

// openWindow sends the request that opens a first-request window.
func (s *state) openWindow() error {
	if s.Key.Opened != nil {
		return nil
	}
	ex, err := s.SendKeyed()
	if err != nil {
		return err
	}
	if ex.Status/100 != 2 {
		return s.setupFailed("the first request of a fresh key", ex)
	}
	s.Key.Runs = append(s.Key.Runs, []*httpclient.Exchange{ex})
	return nil
}

func (s *state) setupFailed(what string, ex *httpclient.Exchange) error {
	v := scenario.Violate(s.Refs(), what, "2xx", fmt.Sprintf("HTTP %d", ex.Status), ex)
	v.Precondition = true
	return v
}

// windowHasLeft waits until the key's window has ms left: before the next
// epoch boundary (at least ms+100 ms away), or before the earliest end of
// the window the key's first request opens.
func (s *state) windowHasLeft(ms int) error {
	left := time.Duration(ms) * time.Millisecond
	if !s.Epoch() {
		if err := s.openWindow(); err != nil {
			return err
		}
		return s.WaitUntil(s.KeyWindowEarliestEnd().Add(-left))
	}
	now := s.Now()
	end := s.EpochStart(now).Add(s.Window())
	if end.Sub(now) < left+100*time.Millisecond {
		end = end.Add(s.Window())
	}
	s.Key.End, s.Key.Spent = end, 0
	return s.WaitUntil(end.Add(-left))
}

// windowIsOld waits until the key's window is ms old: an epoch window's
// start plus ms (the next window's when that has passed), or ms after
// the request that opens a first-request window.
func (s *state) windowIsOld(ms int) error {
	age := time.Duration(ms) * time.Millisecond
	if !s.Epoch() {
		if err := s.openWindow(); err != nil {
			return err
		}
		return s.WaitUntil(s.Key.Opened.Sent.Add(age))
	}
	now := s.Now()
	start := s.EpochStart(now)
	if now.After(start.Add(age)) {
		start = start.Add(s.Window())
	}
	s.Key.End, s.Key.Spent = start.Add(s.Window()), 0
	return s.WaitUntil(start.Add(age))
}

// epochWindowIsOld waits until an epoch window is ms old, so that what
// follows falls in one window; with first-request windows the key's next
// request opens its window, and there is nothing to wait for.
func (s *state) epochWindowIsOld(ms int) error {
	if !s.Epoch() {
		return nil
	}
	return s.windowIsOld(ms)
}

// spendRest sends the requests the key has left in its window, each of
// which must be allowed, and assumes they were decided inside it.
func (s *state) spendRest() error {
	end := s.KeyWindowEarliestEnd()
	run, err := s.SendAtOnce(s.Limit() - s.Key.Spent)
	if err != nil {
		return err
	}
	for _, ex := range run {
		if ex.Status/100 != 2 {
			return s.setupFailed("spending the rest of a window", ex)
		}
	}
	if len(run) > 0 {
		_, last := scenario.Span(run)
		s.Assume("the window spent before it ended", func() string {
			if !end.IsZero() && !last.Before(end) {
				return fmt.Sprintf("the last request of the window came back %s after it ended", last.Sub(end).Round(time.Millisecond))
			}
			return ""
		})
	}
	return nil
}

// windowEnds waits until 100 ms after the key's window has certainly
// ended; the next request opens (first-request) or falls in the next one.
func (s *state) windowEnds() error {
	end := s.KeyWindowEnd()
	if end.IsZero() {
		end = s.EpochStart(s.Now()).Add(s.Window())
	}
	if err := s.WaitUntil(end.Add(100 * time.Millisecond)); err != nil {
		return err
	}
	s.Key.Opened, s.Key.Spent, s.Key.End, s.Key.Ended = nil, 0, end.Add(s.Window()), end
	return nil
}

// nPlusSequential sends N+k requests of the key one after another.
func (s *state) nPlusSequential(k int) error {
	run, err := s.SendRun(s.Limit() + k)
	s.Batch = scenario.Batch{Exchanges: run, Sent: len(run)}
	return err
}

// fixedBound is FW-1 on every exchange: at most N allowed per epoch window,
// or per window opened by a first request.
func (s *state) fixedBound() error {
	check := bound.EpochWindows
	if !s.Epoch() {
		check = bound.FirstWindow
	}
	if err := s.BoundViolation(check(s.Events(), s.Limit(), s.Window(), bound.DefaultTolerance)); err != nil {
		return err
	}
	return s.FreshKeyAllowed(s.Limit())
}

// boundaryBurst is FW-2: at most 2N (epoch) or 2N − 1 (first-request)
// allowed in any span of W; the largest burst measured is the scenario's
// note.
func (s *state) boundaryBurst() error {
	most := 2 * s.Limit()
	if !s.Epoch() {
		most--
	}
	largest, vs := bound.Burst(s.Events(), most, s.Window(), bound.DefaultTolerance)
	s.SetNote(fmt.Sprintf("largest burst measured: %d allowed within %s (bound %d)", largest, s.Window()-bound.DefaultTolerance, most))
	return s.BoundViolation(vs)
}

// fixedHeaders is FW-5 over the key's first run and the 429 after it.
func (s *state) fixedHeaders() error {
	exs := append(slices.Clone(s.Key.Runs[0]), s.Last.Ex)
	first := exs[0]
	if _, err := check.HeadersOf(first, s.Refs()); errors.Is(err, godog.ErrSkip) {
		return err
	}
	lo, hi := first.Sent.Add(s.Window()), first.Received.Add(s.Window())
	if s.Epoch() {
		lo = s.EpochStart(first.Sent).Add(s.Window())
		hi = lo
		s.Assume("one epoch window", func() string {
			if last := exs[len(exs)-1]; !last.Received.Before(lo) {
				return "the requests did not all come back before the epoch window ended"
			}
			return ""
		})
	}
	rlo, rhi := lo.Unix()-1, int64(math.Ceil(float64(hi.UnixNano())/1e9))+1
	for i, ex := range exs {
		rl, err := s.LimitHeaders(ex)
		if err != nil {
			return err
		}
		want := int64(0)
		if ex.Status/100 == 2 {
			want = int64(s.Limit() - 1 - i)
		}
		if rl.Remaining != want {
			return scenario.Violate(s.Refs(), fmt.Sprintf("%s of request %d", ex.Answer.FieldName(dialect.FieldRemaining), i+1), fmt.Sprintf("%d", want), fmt.Sprintf("%d", rl.Remaining), exs[:i+1]...)
		}
		if rl.Reset < rlo || rl.Reset > rhi {
			return scenario.Violate(s.Refs(), fmt.Sprintf("%s of request %d: the window's end", ex.Answer.FieldName(dialect.FieldReset), i+1), fmt.Sprintf("in [%d, %d]", rlo, rhi), fmt.Sprintf("%d", rl.Reset), first, ex)
		}
		if !ex.Refused() {
			continue
		}
		ra, ok, err := s.RetryAfterOf(ex)
		if err != nil || !ok {
			return err
		}
		alo, ahi := int64(lo.Sub(ex.Received).Seconds())-1, int64(math.Ceil(hi.Sub(ex.Sent).Seconds()))+1
		if ra < alo || ra > ahi {
			return scenario.Violate(s.Refs(), "Retry-After on a 429: seconds to the window's end", fmt.Sprintf("in [%d, %d]", alo, ahi), fmt.Sprintf("%d", ra), first, ex)
		}
	}
	return nil
}

// fixed429 is FW-6: the 429 (already checked) carries LIMITED_BODY.
func (s *state) fixed429() error {
	ex := s.Last.Ex
	ra, _, _ := s.RetryAfterOf(ex)
	return s.LimitedBody(ex, ra)
}

// anonymousNext is FW-7: after N without the key from one address, the
// next is refused; with anonymous-open claimed, allowed.
func (s *state) anonymousNext() error {
	ex, err := s.SendKeyed()
	if err != nil {
		return err
	}
	want := s.Env().Config.Answer().Status()
	if s.Env().Config.Claims(profile.AnonymousOpen) {
		want = http.StatusOK
	} else {
		s.AssumeRunInOneWindow(ex)
	}
	if ex.Status != want {
		return scenario.Violate(s.Refs(), "a request without the key after N from its address", fmt.Sprintf("HTTP %d", want), fmt.Sprintf("HTTP %d", ex.Status), ex)
	}
	return nil
}
