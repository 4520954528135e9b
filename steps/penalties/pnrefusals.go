package penalties

import (
	"fmt"
	"net/http"
	"time"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerPNRefusals registers PN-4's step on the count: whether the
// refusals a key got under its penalty would, were they counted as
// violations, give its next violation another level.
func (s *state) registerPNRefusals(sc scenario.Stepper) {
	sc.Step(`^the refusals under the penalty would start another tier's penalty were they counted$`, s.refusalsDecidable)
	sc.Step(`^a request of the key is sent every 250 ms from 2 seconds to 1 second before penalty_until, each refused under the penalty$`, s.refusedLate)
}

// refusedLate sends a request of the key every 250 ms from penalty_until
// − 2 s to penalty_until − 1 s (none before the violation came back); each
// gets 429 under the penalty (PN-1). Late in a penalty longer than W + 2 s
// the algorithm has room again, so refusals that spend do, and what they
// spent still lies in the window when the key is released at
// penalty_until + 1 s (W ≥ 3 s): PN-4's "N allowed" then sees it.
func (s *state) refusedLate() error {
	p, err := s.current()
	if err != nil {
		return err
	}
	until := time.Unix(p.until, 0)
	return s.retryUnder(p, until.Add(-2*time.Second), until.Add(-time.Second))
}

// retryUnder sends a request of the key every 250 ms from from (none
// before penalty p's violation came back) while before stop; each gets
// 429 under the penalty (PN-1). A request that came back after stop may
// have been decided within a second of penalty_until, where a server of
// whole seconds may have ended the penalty: it is not judged. Refused
// under the penalty, it spent nothing that the penalty would not have,
// and the run stops there once an earlier request was judged; anything
// else (allowed, or refused by the algorithm: a new violation) breaks
// what the scenario rests on.
func (s *state) retryUnder(p seenPenalty, from, stop time.Time) error {
	judged := 0
	for next := from; next.Before(stop); next = next.Add(250 * time.Millisecond) {
		if next.Before(p.ex.Received) {
			continue
		}
		if err := s.WaitUntil(next); err != nil {
			return err
		}
		ex, err := s.SendKeyed()
		if err != nil {
			return err
		}
		if !ex.Received.Before(stop) {
			if active, _ := penaltyOf(ex); !active || ex.Status != http.StatusTooManyRequests || judged == 0 {
				s.Assume("requests under the penalty decided before penalty_until − 1 s", func() string {
					return fmt.Sprintf("a request sent %s came back %s after penalty_until − 1 s",
						ex.Sent.Format("15:04:05.000"), ex.Received.Sub(stop).Round(time.Millisecond))
				})
			}
			return nil
		}
		if err := s.underPenalty(p, ex); err != nil {
			return err
		}
		judged++
	}
	return nil
}

// refusalsDecidable skips the scenario when RL_PENALTIES cannot tell a
// count raised by the refusals under the current penalty from the count of
// the key's violations: the next violation's level must differ by at least
// 3 s (as escalation, profiles.md) between the two counts.
func (s *state) refusalsDecidable() error {
	p, err := s.current()
	if err != nil {
		return err
	}
	k := 0
	for _, ex := range s.Exchanges() {
		if active, _ := penaltyOf(ex); active && ex.Status == http.StatusTooManyRequests && ex.Sent.After(p.ex.Received) {
			k++
		}
	}
	if k == 0 {
		return scenario.Skip("no request could be sent under the penalty (penalty_until %d came less than 1.25 s after the violation)", p.until)
	}
	next, counted := s.levels().Duration(p.violation+1), s.levels().Duration(p.violation+1+k)
	if d := counted - next; d < 3*time.Second && d > -3*time.Second {
		return scenario.Skip("RL_PENALTIES=%s cannot tell whether the %d refusals under the penalty counted: violation %d and violation %d start %s and %s, less than 3 s apart (add a tier beyond count %d)",
			model.FormatPenaltyTiers(s.Env().Config.Penalties), k, p.violation+1, p.violation+1+k, next, counted, p.violation+1)
	}
	return nil
}
