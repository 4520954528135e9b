package probe

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/profile"
)

// DefaultBudget is PROBE_BUDGET's default: enough for a limit of about
// ten with its refusal, the keying test and the refill.
const DefaultBudget = 30

// MinBudget is the smallest budget a probe runs with.
const MinBudget = 3

// Options say how a probe runs. The zero values take defaults: the budget
// DefaultBudget, no waiting, the wall clock, the answer detected, keys per
// profile.
type Options struct {
	Budget  int           // requests, never more
	MaxWait time.Duration // the longest the probe waits for a quota to come back
	Clock   Clock
	// Answer is how answers are read before the first one is seen: the
	// DIALECT, RESET_FORMAT, … given (auto when not).
	Answer dialect.Settings
	// Profile is PROFILE ("" any): the PRD's keys are device buckets.
	Profile profile.Name
	// Local says the target answers on loopback, so a second client
	// address can be sent from.
	Local      bool
	Strategies []Strategy // nil: Strategies()
}

// CheckBudget reports a budget a probe cannot run with, as one sentence.
func CheckBudget(n int) error {
	if n < MinBudget {
		return fmt.Errorf("PROBE_BUDGET=%d: a probe needs at least %d requests (the first answer, a refusal, a second key)", n, MinBudget)
	}
	return nil
}

// Run probes t with o's budget and returns the session, whose Findings
// say what was seen; the error is a first answer that is not 2xx
// (*SetupError), a transport failure or a cancelled context. The session
// never sends more than o.Budget requests.
func Run(ctx context.Context, t Target, o Options) (*Session, error) {
	if o.Budget == 0 {
		o.Budget = DefaultBudget
	}
	if err := CheckBudget(o.Budget); err != nil {
		return nil, err
	}
	if o.Clock == nil {
		o.Clock = WallClock{}
	}
	if o.Strategies == nil {
		o.Strategies = Strategies()
	}
	s := &Session{target: t, clock: o.Clock, budget: o.Budget, maxWait: o.MaxWait, Answer: o.Answer, keys: map[string]string{}, local: o.Local,
		newKey: func() string { return "rlspec-probe-" + bodytmpl.NewUUID() }}
	if o.Profile == profile.PRD {
		s.newKey = bodytmpl.NewDeviceBucket
	}
	for _, st := range o.Strategies {
		if err := st.Run(ctx, s); err != nil {
			var se *SetupError
			if errors.As(err, &se) {
				se.PRD = o.Profile == profile.PRD
			}
			if errors.Is(err, ErrBudget) {
				s.F.unknown("the rest: the budget of %d requests is spent", o.Budget)
				return s, nil
			}
			return s, err
		}
	}
	return s, nil
}
