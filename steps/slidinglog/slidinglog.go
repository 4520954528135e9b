package slidinglog

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerSlidingLog registers the checks of profile sliding-log (SL-1 …
// SL-8): the bounds on the recorded exchanges (package bound), the 429 and
// the headers.
func (s *state) registerSlidingLog(sc scenario.Stepper) {
	sc.Step(`^no window of length W held more than N allowed requests of the key$`, s.slidingBound)
	sc.Step(`^a request sent once Retry-After plus 1 second has passed is allowed$`, s.allowedAfterRetry)
	sc.Step(`^no request of the key was refused while fewer than N allowed ones lay in the last W plus 1 second$`, s.noOverBlocking)
	sc.Step(`^requests refused meanwhile do not keep the key refused once its first allowed request has left the window$`, s.refusedNotRecorded)
	sc.Step(`^the 429 has Retry-After in \[1, W\] and a body matching LIMITED_BODY$`, s.the429)
	sc.Step(`^Retry-After is at most the time until the oldest allowed request leaves the window plus 1 second$`, s.retryAfterFromOldest)
	sc.Step(`^every response carried Limit N, Remaining N minus the allowed requests, and Reset at the oldest allowed request plus W$`, s.logHeaders)
	sc.Step(`^another fresh key from the same client address gets N requests allowed$`, s.anotherKey)
	sc.Step(`^a request without the key from another fresh client address is allowed$`, s.anotherAddress)
}

// slidingBound is SL-1 on every exchange of the scenario.
func (s *state) slidingBound() error {
	if err := s.BoundViolation(bound.SlidingLog(s.Events(), s.Limit(), s.Window(), bound.DefaultTolerance)); err != nil {
		return err
	}
	return s.FreshKeyAllowed(s.Limit())
}

// noOverBlocking is SL-4's first sentence on every exchange.
func (s *state) noOverBlocking() error {
	return s.BoundViolation(bound.OverBlocking(s.Events(), s.Limit(), s.Window(), bound.DefaultTolerance))
}

// allowedAfterRetry is SL-4's second sentence: the last 429 said
// Retry-After; a request sent Retry-After + 1 s after that 429 came back
// is allowed.
func (s *state) allowedAfterRetry() error { return s.AllowedAfterRetryPlus(time.Second) }

// refusedNotRecorded is SL-5: after N allowed requests, requests sent
// every 250 ms are refused at first; the key is allowed again once its
// first allowed request has left the window (its response came back more
// than W + 1 s ago), however many were refused meanwhile.
func (s *state) refusedNotRecorded() error {
	first := s.Key.Runs[len(s.Key.Runs)-1][0]
	due := first.Received.Add(s.Window() + time.Second)
	if err := s.MayWaitUntil(due); err != nil {
		return err
	}
	var refused []*httpclient.Exchange
	for {
		ex, err := s.SendKeyed()
		if err != nil {
			return err
		}
		if ex.Status/100 == 2 {
			return nil
		}
		if !ex.Refused() {
			return scenario.Violate(s.Refs(), "a key that spent N", "429", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
		refused = append(refused, ex)
		if !ex.Sent.Before(due) {
			return scenario.Violate(clause.Of(clause.SL5), "refused requests do not move when the key is allowed again",
				fmt.Sprintf("allowed once the first allowed request left the window (sent %s after it)", ex.Sent.Sub(first.Received).Round(time.Millisecond)),
				fmt.Sprintf("429 after %d refused requests", len(refused)), append([]*httpclient.Exchange{first}, refused...)...)
		}
		if err := s.WaitUntil(ex.Received.Add(250 * time.Millisecond)); err != nil {
			return err
		}
	}
}

// the429 is SL-6 on the last exchange.
func (s *state) the429() error {
	ex := s.Last.Ex
	ra, ok, err := s.RetryAfterOf(ex)
	if err != nil {
		return err
	}
	w := int64(s.Window() / time.Second)
	if ok && (ra < 1 || ra > w) {
		return scenario.Violate(s.Refs(), "Retry-After on a 429", fmt.Sprintf("in [1, %d]", w), fmt.Sprintf("%d", ra), ex)
	}
	return s.LimitedBody(ex, ra)
}

// retryAfterFromOldest: the 429's Retry-After is at most the whole seconds
// from the 429's send until the oldest allowed request (by its receive
// time) leaves the window, plus 1 s.
func (s *state) retryAfterFromOldest() error {
	ex := s.Last.Ex
	ra, ok, err := s.RetryAfterOf(ex)
	if err != nil || !ok {
		return err
	}
	oldest := s.Key.Runs[0][0]
	most := int64(math.Ceil(oldest.Received.Add(s.Window()).Sub(ex.Sent).Seconds())) + 1
	if ra > most {
		return scenario.Violate(s.Refs(), "Retry-After says when the oldest allowed request leaves the window",
			fmt.Sprintf("at most %d s (its response came %s before the 429 was sent, W = %s, +1 s)", most, ex.Sent.Sub(oldest.Received).Round(time.Millisecond), s.Window()),
			fmt.Sprintf("Retry-After: %d", ra), oldest, ex)
	}
	return nil
}

// logHeaders is SL-7 over the key's first run and the 429 after it: Limit
// N on each; Remaining N−1 … 0 on the allowed ones, 0 on the 429; Reset of
// an allowed one within 1 s of the first request plus W (the oldest in the
// window); Reset of the 429 within 1 s of now + Retry-After.
func (s *state) logHeaders() error {
	exs := append(slices.Clone(s.Key.Runs[0]), s.Last.Ex)
	first := exs[0]
	lo, hi := first.Sent.Add(s.Window()-time.Second).Unix(), first.Received.Add(s.Window()+time.Second).Unix()+1
	for i, ex := range exs {
		rl, err := s.LimitHeaders(ex)
		if err != nil {
			return err
		}
		if ex.Status/100 == 2 {
			if want := int64(s.Limit() - 1 - i); rl.Remaining != want {
				return scenario.Violate(s.Refs(), fmt.Sprintf("%s of allowed request %d", ex.Answer.FieldName(dialect.FieldRemaining), i+1), fmt.Sprintf("%d", want), fmt.Sprintf("%d", rl.Remaining), exs[:i+1]...)
			}
			if rl.Reset < lo || rl.Reset > hi {
				return scenario.Violate(s.Refs(), fmt.Sprintf("%s of allowed request %d: the oldest allowed request plus W", ex.Answer.FieldName(dialect.FieldReset), i+1),
					fmt.Sprintf("in [%d, %d]", lo, hi), fmt.Sprintf("%d", rl.Reset), first, ex)
			}
			continue
		}
		if rl.Remaining != 0 {
			return scenario.Violate(s.Refs(), ex.Answer.FieldName(dialect.FieldRemaining)+" on a 429", "0", fmt.Sprintf("%d", rl.Remaining), ex)
		}
		ra, ok, err := s.RetryAfterOf(ex)
		if err != nil || !ok {
			return err
		}
		rlo, rhi := ex.Sent.Unix()+ra-1, ex.Received.Unix()+ra+2
		if rl.Reset < rlo || rl.Reset > rhi {
			return scenario.Violate(s.Refs(), ex.Answer.FieldName(dialect.FieldReset)+" on a 429: now + Retry-After", fmt.Sprintf("in [%d, %d]", rlo, rhi), fmt.Sprintf("%d", rl.Reset), ex)
		}
	}
	return nil
}

// anotherKey: after the scenario's key was refused, a fresh key sent from
// the same client address gets N allowed.
func (s *state) anotherKey() error {
	v, err := s.NewKey()
	if err != nil {
		return err
	}
	s.Key.Value = v
	return s.NAllowed()
}

// anotherAddress: after one client address spent N without a key, another
// address without a key is allowed.
func (s *state) anotherAddress() error {
	s.Key = keyed.Key{Client: s.NewClient()}
	ex, err := s.SendKeyed()
	if err != nil {
		return err
	}
	if ex.Status/100 != 2 {
		return scenario.Violate(s.Refs(), "a request without the key from a fresh client address", "2xx", fmt.Sprintf("HTTP %d", ex.Status), ex)
	}
	return nil
}
