package leakybucket

import (
	"fmt"
	"slices"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerQueue registers the checks of one key's queue (LB-1, LB-2): a
// burst on an idle key, the spacing of its answers and the bound of its
// queue. B is RL_BURST, R is RL_RATE, D the queued requests answered at
// once (atOnce).
func (s *state) registerQueue(sc scenario.Stepper) {
	sc.Step(`^a burst of B\+1(?:\+(\d+))? requests is sent with the key concurrently$`, s.burst)
	sc.Step(`^no span of the key's allowed answers held more than 1 \+ D \+ R·Δt \(\+1\)$`, s.outputRate)
	sc.Step(`^B\+1 of them were allowed and the rest refused with 429, each within 1 second of its send$`, s.queueBound)
}

// burst releases B+1+k requests of the key at once (k empty: 0), a
// control beside them (control.go).
func (s *state) burst(k string) error {
	extra := 0
	if k != "" {
		if _, err := fmt.Sscan(k, &extra); err != nil {
			return scenario.Precondition(fmt.Errorf("burst: %q is not a count: %w", k, err))
		}
	}
	send, err := s.dialControl()
	if err != nil {
		return err
	}
	wait := send(time.Time{})
	err = s.ConcurrentN(s.Burst() + 1 + extra)
	if werr := wait(); err == nil {
		err = werr
	}
	return err
}

// atOnce is D: RL_DELAY, or B under LB_MODE=nodelay (every queued request
// answered at once, its place freed at R: the token bucket of B + 1).
func (s *state) atOnce() int { return s.Env().Config.AnsweredAtOnce() }

// places is B + 1: the request in service and the B queued behind it.
func (s *state) places() int { return s.Burst() + 1 }

// outputRate is LB-1 on every exchange of the scenario (package bound).
// Its lower bound holds whatever the timing: the first B + 1 requests an
// idle key's queue sees (its first run) all find a place.
func (s *state) outputRate() error {
	if err := s.BoundViolation(bound.LeakyBucket(s.Events(), s.atOnce(), s.Rate(), bound.DefaultTolerance)); err != nil {
		return err
	}
	run := s.Key.Runs[0]
	return check.AllowedAtLeast(s.Refs(), run, min(len(run), s.places()), "an idle key's burst: its first B + 1 requests find a place in the queue")
}

// queueBound is LB-2 on the last batch. Fewer than B + 1 allowed is a
// violation whatever the timing (an idle key's first B + 1 requests find a
// place); the slowest refusal answered more than 1 s after its send too,
// where a control in flight beside it came back promptly and rlspec ran
// while it was awaited (control.go, assumeRan). More than B + 1 allowed is
// one only where no placement of the decisions explains it
// (assumeDecidedAtOnce): each extra must have come back before a place
// could have drained for it.
func (s *state) queueBound() error {
	exs := s.Batch.Exchanges
	var allowed []*httpclient.Exchange
	var slowest *httpclient.Exchange // the refusal longest in flight
	for _, ex := range exs {
		if ex.Status/100 == 2 {
			allowed = append(allowed, ex)
			continue
		}
		if !ex.Refused() {
			return scenario.Violate(s.Refs(), "each request is allowed or refused", "2xx or 429", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
		if slowest == nil || ex.Received.Sub(ex.Sent) > slowest.Received.Sub(slowest.Sent) {
			slowest = ex
		}
	}
	if err := check.AllowedAtLeast(s.Refs(), exs, min(len(exs), s.places()), "an idle key's burst: its first B + 1 requests find a place in the queue"); err != nil {
		return err
	}
	if len(allowed) > s.places() {
		s.assumeDecidedAtOnce(allowed)
		return scenario.Violate(s.Refs(), fmt.Sprintf("%d concurrent requests on an idle key", len(exs)),
			fmt.Sprintf("%d allowed (B + 1), %d refused", s.places(), len(exs)-s.places()), fmt.Sprintf("%d allowed", len(allowed)), exs...)
	}
	if slowest != nil {
		if took := slowest.Received.Sub(slowest.Sent); took > time.Second {
			s.assumePrompt(slowest)
			s.assumeRan(slowest, took-time.Second)
			return scenario.Violate(s.Refs(), "a request that finds the queue full is refused at once",
				"the 429 within 1 s of its send", fmt.Sprintf("after %s", took.Round(time.Millisecond)), slowest)
		}
	}
	return nil
}

// assumeDecidedAtOnce: the allowed requests beyond B + 1 were decided
// before a place drained for them, for every placement of the decisions.
// The queue's first place is taken no earlier than the first allowed send
// (a1), and the j-th request beyond B + 1 finds a place only j/R after
// it; a decision lies anywhere up to its answer's receipt. So the
// allowed answers in order of receipt must hold one, the (B+1+j)-th, that
// came back before a1 + j/R: decided at the latest then, it found no place
// drained. In delay mode a queued answer leaves late by design and
// bounds its decision late, so extras are seldom decidable there; under
// nodelay answers leave at their decisions. A store that serialises the
// decisions (PostgreSQL's retried transactions under load) may decide the
// last of a batch after a place drained, however soon the batch arrived:
// that run is not judged.
func (s *state) assumeDecidedAtOnce(allowed []*httpclient.Exchange) {
	s.Assume("the allowed requests beyond B + 1 decided before a place drained", func() string {
		first, _ := scenario.SendSpan(allowed)
		got := make([]time.Time, len(allowed))
		for i, ex := range allowed {
			got[i] = ex.Received
		}
		slices.SortFunc(got, time.Time.Compare)
		for j := 1; s.places()+j <= len(got); j++ {
			if got[s.places()+j-1].Before(first.Add(time.Duration(j) * s.PerToken())) {
				return ""
			}
		}
		last := len(got) - 1
		return fmt.Sprintf("the %d allowed answers came back up to %s after the first allowed send: decided that late, the %d beyond B + 1 found places drained at R (one each %s)",
			len(got), got[last].Sub(first).Round(time.Millisecond), len(got)-s.places(), s.PerToken())
	})
}
