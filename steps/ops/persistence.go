package ops

import (
	"fmt"
	"math"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerPersistence registers the steps of PS-1: quota spent before the
// target restarts is still spent after it. The scenario runs alone
// (takesStore), since every instance goes away for a moment.
func (s *state) registerPersistence(sc scenario.Stepper) {
	sc.Step(`^the target claims persistence and can be restarted$`, s.claimsPersistence)
	sc.Step(`^the target restarts$`, s.targetRestarts)
	sc.Step(`^within (\d+) seconds of the restart a ride to the bucket gets 200 with Remaining at most the limit minus (\d+)$`, func(secs, n int) error {
		return s.backWithSpent(secs, n, clause.Of(clause.PS1), "the restart")
	})
	sc.Step(`^after the restart the key gets no more requests allowed than the bucket refilled since it was drained$`, s.refilledOnly)
}

// refilledOnly sends requests with a drained token-bucket key after the
// restart, one after another, up to the first 429 (at most B+1). The bucket
// was empty when the drain's 429 was decided, at the latest when it was
// sent; by the last request's receipt (Δt, plus the clock tolerance) it
// can have refilled less than R·Δt + 1 tokens. More allowed is
// quota given back by the restart. A forgotten bucket is told apart from a
// refilled one only while B exceeds that bound: a slower restart skips.
func (s *state) refilledOnly() error {
	drained := s.key.Key.Runs
	if len(drained) == 0 || len(drained[len(drained)-1]) == 0 {
		return scenario.Precondition(fmt.Errorf("no drained key: the scenario must drain the key before the restart"))
	}
	run := drained[len(drained)-1]
	empty := run[len(run)-1]
	if !empty.Refused() {
		return scenario.Precondition(fmt.Errorf("the drain ended with HTTP %d, not a 429", empty.Status))
	}
	var after []*httpclient.Exchange
	allowed := 0
	for len(after) <= s.key.Burst() {
		ex, err := s.key.SendKeyed()
		if ex != nil {
			after = append(after, ex)
		}
		if err != nil {
			return err
		}
		if ex.Refused() {
			break
		}
		if ex.Status/100 != 2 {
			return scenario.Violate(s.Refs(), "a request after the restart", "2xx or 429", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
		allowed++
	}
	last := after[len(after)-1]
	span := last.Received.Sub(empty.Sent) + bound.DefaultTolerance
	refill := int(math.Floor(s.key.Rate()*span.Seconds())) + 1
	if allowed > refill {
		return scenario.Violate(s.Refs(), "quota spent before the restart",
			fmt.Sprintf("at most %d allowed: the bucket refills %g/s·%s + 1 since it was drained", refill, s.key.Rate(), span.Round(time.Millisecond)),
			fmt.Sprintf("%d allowed after the restart", allowed), append([]*httpclient.Exchange{empty}, after...)...)
	}
	if s.key.Burst() <= refill {
		return scenario.Skip("the drain, the restart and the requests after it took %s: the bucket refills %d tokens meanwhile, as many as a forgotten bucket of B = %d gives, so the two cannot be told apart (a faster restart or a lower RL_RATE can)",
			span.Round(time.Millisecond), refill, s.key.Burst())
	}
	return nil
}

func (s *state) claimsPersistence() error {
	if err := s.Env().Claimed(profile.Persistence); err != nil {
		return err
	}
	if s.Env().Restarter == nil {
		return scenario.Skip("no way to restart the target: PS-1 needs TARGET_IMAGE (rlspec restarts its containers on their volume) or the embedded reference")
	}
	return nil
}

func (s *state) targetRestarts() error {
	if err := s.Env().Restarter.Restart(s.Ctx()); err != nil {
		return fmt.Errorf("restart the target: %w", err)
	}
	return nil
}
