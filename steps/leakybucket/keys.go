package leakybucket

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// lead is how long after another key's batch the key's own requests are
// released: time for the other batch to reach the server, well inside the
// B/R its queue stays busy. The assumption checked afterwards is the order
// of the sends, not this figure.
const lead = 200 * time.Millisecond

// registerKeys registers the checks of queues under load from another key
// (LB-3, LB-4).
func (s *state) registerKeys(sc scenario.Stepper) {
	sc.Step(`^another fresh key queues B−1 requests and the key sends a burst of B\+1 while they wait$`, func() error { return s.besideOther(s.Burst()-1, s.places()) })
	sc.Step(`^another fresh key queues B\+1 requests and the key sends one while they wait$`, func() error { return s.besideOther(s.places(), 1) })
	sc.Step(`^the i-th answer of the key came within max\(i − D, 0\)/R \+ 1 second of its send$`, s.noOverDelay)
	sc.Step(`^the key's request was allowed within 1 second of its send$`, s.notDelayed)
}

// besideOther releases n requests of a fresh other key at once and, lead
// later, own requests of the scenario's key at once (the key's batch). The
// verdicts rest on the key's requests having been sent after all of the
// other key's and before the last of them was answered (its queue still
// held requests; under nodelay, before n/R after its first send, while its
// places are still held), checked afterwards: a pass where they were not shows
// nothing. A violation rests on no timing (the key was idle).
func (s *state) besideOther(n, own int) error {
	otherKey, err := s.NewKey()
	if err != nil {
		return err
	}
	if n < 1 {
		return scenario.Skip("RL_BURST=%d leaves no other key's queue to wait beside", s.Burst())
	}
	oc := s.NewClient()
	// Both clients dial before the release is set: a limiter may hold the
	// dials' requests back, as it holds the queued key's.
	s.Predial(oc, n)
	s.Predial(s.Key.Client, own)
	send, err := s.dialControl()
	if err != nil {
		return err
	}
	release := s.Now().Add(lead)
	var wg sync.WaitGroup
	var otherErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.other, otherErr = s.FireDialed(oc, s.KeyedN(otherKey, n), release)
	}()
	wait := send(release.Add(lead))
	mine, err := s.FireDialed(s.Key.Client, s.KeyedN(s.Key.Value, own), release.Add(lead))
	wg.Wait()
	if werr := wait(); err == nil {
		err = werr
	}
	s.Key.Runs = append(s.Key.Runs, mine)
	s.Batch = scenario.Batch{Exchanges: mine, Sent: len(mine)}
	if err != nil {
		return err
	}
	if otherErr != nil {
		return otherErr
	}
	s.Assume("the key's requests sent while the other key's were queued", func() string {
		var v *scenario.Violation
		if errors.As(s.Err(), &v) && !v.Precondition {
			return "" // a violation on an idle key rests on no timing
		}
		firstSent, held := scenario.Span(s.other)
		_, lastSent := scenario.SendSpan(s.other)
		if s.Env().Config.NoDelay() {
			// answered at once, the other key's places are freed at R from
			// its first decision (not before its first send)
			held = firstSent.Add(time.Duration(n) * s.PerToken())
		}
		for _, ex := range mine {
			if ex.Sent.Before(lastSent) || !ex.Sent.Before(held) {
				return fmt.Sprintf("a request of the key went out at %s, outside [%s, %s): the other key's sends and the end of its hold on its queue",
					ex.Sent.Format("15:04:05.000"), lastSent.Format("15:04:05.000"), held.Format("15:04:05.000"))
			}
		}
		return ""
	})
	return nil
}

// noOverDelay is LB-3 on the key's batch (an idle key's burst of B + 1,
// each finding a place): ordered by answer, the i-th (from 1) came back
// within max(i − D, 0)/R + 1 s of its send, D the queued requests
// answered at once (RL_DELAY; all B under nodelay, so that a queue that
// delays them fails). The answer latest past its bound is the evidence,
// where rlspec itself ran while it was awaited (assumeRan). Each must be
// allowed.
func (s *state) noOverDelay() error {
	exs := slices.Clone(s.Batch.Exchanges)
	slices.SortFunc(exs, func(a, b *httpclient.Exchange) int { return a.Received.Compare(b.Received) })
	worst, late := -1, time.Duration(0) // the answer latest past its bound
	for i, ex := range exs {
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), fmt.Sprintf("request %d of an idle key's burst of %d (each finds a place)", i+1, len(exs)),
				"2xx", fmt.Sprintf("HTTP %d", ex.Status), append(exs, s.other...)...)
		}
		if by := ex.Received.Sub(ex.Sent) - s.answerBound(i); by > late {
			worst, late = i, by
		}
	}
	if worst < 0 {
		s.assumeBurstShows(exs)
		return nil
	}
	ex := exs[worst]
	s.assumeRan(ex, late)
	return scenario.Violate(s.Refs(), fmt.Sprintf("answer %d of an idle key's burst of %d", worst+1, len(exs)),
		fmt.Sprintf("within %s of its send (max(i − D, 0)/R + 1 s, R = %g/s, D = %d)", s.answerBound(worst), s.Rate(), s.atOnce()),
		fmt.Sprintf("after %s", ex.Received.Sub(ex.Sent).Round(time.Millisecond)),
		append(exs[:worst+1:worst+1], s.other...)...)
}

// assumeBurstShows records what a pass of LB-3 rests on: the key's burst
// went out together, so that a queue delaying every request its turn
// would have been caught. Such a queue answers the k-th request it decides
// (from 0) no earlier than k/R after the first send, whenever the store
// decides it; the k-th answered has the bound max(k + 1 − D, 0)/R + 1 s,
// so the (D−1)-th (D ≥ 2) comes late by (D − 1)/R − 1 s less the burst's
// spread of sends. Where that margin is not positive no burst could show
// such a queue, and the pass says only that none came late.
func (s *state) assumeBurstShows(exs []*httpclient.Exchange) {
	margin := time.Duration(s.atOnce()-1)*s.PerToken() - time.Second
	if margin <= 0 { // D < 2 among them
		return
	}
	s.Assume("the key's burst went out together", func() string {
		var v *scenario.Violation
		if errors.As(s.Err(), &v) && !v.Precondition {
			return "" // a late answer rests on no send's timing
		}
		first, last := scenario.SendSpan(exs)
		if spread := last.Sub(first); spread >= margin {
			return fmt.Sprintf("its sends spread over %s, from %s: a queue delaying each request its turn could have answered every one in time (it shows only within %s, (D − 1)/R − 1 s)",
				spread.Round(time.Millisecond), first.Format("15:04:05.000"), margin)
		}
		return ""
	})
}

// answerBound is LB-3's bound on the i-th answer (from 0) of an idle
// key's burst: max(i + 1 − D, 0)/R + 1 s.
func (s *state) answerBound(i int) time.Duration {
	return time.Duration(max(i+1-s.atOnce(), 0))*s.PerToken() + time.Second
}

// assumeRan records that a violation on ex coming late by late rests on
// rlspec having run while ex was awaited: a process that could not run
// for as long (internal/stall) may have read the answer that late itself.
func (s *state) assumeRan(ex *httpclient.Exchange, late time.Duration) {
	s.Assume("rlspec ran while the late answer was awaited", func() string {
		if lost := s.Stalled(ex.Sent, ex.Received); lost >= late {
			return fmt.Sprintf("rlspec itself could not run for %s while the answer sent at %s was awaited, not less than the %s it came late",
				lost.Round(time.Millisecond), ex.Sent.Format("15:04:05.000"), late.Round(time.Millisecond))
		}
		return ""
	})
}

// notDelayed is LB-4: the key's one request, sent while another key's
// queue was full, was allowed and answered within 1 s — slower is a
// violation where the control beside it (another idle key) came back
// promptly.
func (s *state) notDelayed() error {
	ex := s.Batch.Exchanges[0]
	if ex.Status/100 != 2 {
		return scenario.Violate(s.Refs(), "the first request of an idle key while another key's queue is full", "2xx", fmt.Sprintf("HTTP %d", ex.Status), append([]*httpclient.Exchange{ex}, s.other...)...)
	}
	if took := ex.Received.Sub(ex.Sent); took > time.Second {
		s.assumePrompt(ex)
		s.assumeRan(ex, took-time.Second)
		return scenario.Violate(s.Refs(), "the first request of an idle key while another key's queue is full",
			"answered within 1 s of its send", fmt.Sprintf("after %s", took.Round(time.Millisecond)), append([]*httpclient.Exchange{ex}, s.other...)...)
	}
	return nil
}
