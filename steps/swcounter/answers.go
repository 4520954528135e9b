package swcounter

import (
	"fmt"
	"slices"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerAnswers registers SWC-5's and SWC-6's checks: the refusal and
// the headers of a fresh key's first grid window.
func (s *state) registerAnswers(sc scenario.Stepper) {
	sc.Step(`^the refusal has LIMITED_STATUS, a body matching LIMITED_BODY and, where sent, Retry-After in \[1, W\]$`, s.refusal)
	sc.Step(`^where Retry-After was sent, a request sent once it plus 1 second has passed is allowed$`, s.allowedAfterRetryWhereSent)
	sc.Step(`^every response carried Limit N, Remaining N minus the weighted count, and Reset at the grid window's end$`, s.counterHeaders)
}

// refusal is SWC-5's first sentence on the last exchange.
func (s *state) refusal() error {
	return s.RefusalWhereSent(s.Last.Ex, int64(s.Window().Seconds()))
}

// counterHeaders is SWC-6 over a fresh key's first run and the refusal
// after it, all in one grid window: no previous window weighs, so e is
// the count allowed so far. Limit N on each; Remaining N − i (±1) after
// the i-th allowed, 0 (+1) on the refusal; Reset the window's end (±1 s)
// — on a fresh key's first window also the instant e falls below N, so
// the check holds either reading.
func (s *state) counterHeaders() error {
	exs := append(slices.Clone(s.Key.Runs[0]), s.Last.Ex)
	s.assumeOneWindow(exs)
	end := s.gridStart(exs[0].Sent).Add(s.Window()).Unix()
	for i, ex := range exs {
		rl, err := s.LimitHeaders(ex)
		if err != nil {
			return err
		}
		want, slack := int64(max(s.Limit()-1-i, 0)), int64(profile.Of(profile.SlidingWindowCounter).RemainingSlack)
		if rl.Remaining < want-slack || rl.Remaining > want+slack {
			return scenario.Violate(s.Refs(), fmt.Sprintf("%s of request %d of a fresh key in one grid window: N − ⌈e⌉", ex.Answer.FieldName(dialect.FieldRemaining), i+1),
				fmt.Sprintf("%d (±%d)", want, slack), fmt.Sprintf("%d", rl.Remaining), exs[:i+1]...)
		}
		if rl.Reset < end-1 || rl.Reset > end+1 {
			return scenario.Violate(s.Refs(), fmt.Sprintf("%s of request %d: the end of the grid window (where e also falls below N on a fresh key)", ex.Answer.FieldName(dialect.FieldReset), i+1),
				fmt.Sprintf("in [%d, %d]", end-1, end+1), fmt.Sprintf("%d", rl.Reset), ex)
		}
	}
	return nil
}

// allowedAfterRetryWhereSent is SWC-5's second half: a request sent once
// the refusal's Retry-After (plus 1 s) has passed is allowed. Retry-After
// is optional in every dialect ("where sent"): without one there is
// nothing to wait for and nothing to check, which is no skip — the
// refusal's status and body were checked by the step before.
func (s *state) allowedAfterRetryWhereSent() error {
	if !s.Last.Ex.Observe().Has(dialect.FieldRetryAfter) {
		return nil
	}
	return s.AllowedAfterRetryPlus(time.Second)
}
