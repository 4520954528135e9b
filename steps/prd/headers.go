package prd

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerHeaders registers the checks of the rate-limit headers (FR-7).
func (s *World) registerHeaders(sc scenario.Stepper) {
	sc.Step(`^Limit is the configured limit$`, s.limitIsConfigured)
	sc.Step(`^the response carries valid rate-limit headers$`, func() error { return s.validHeaders(s.Last.Ex) })
	sc.Step(`^every response so far carried valid rate-limit headers$`, s.allValidHeaders)
}

func (s *World) limitIsConfigured() error {
	ex, rl, err := s.lastWithHeaders()
	if err != nil {
		return err
	}
	if int(rl.Limit) != s.Limit() {
		return scenario.Violate(clause.Of(clause.FR7), "X-RateLimit-Limit", fmt.Sprintf("%d (RL_LIMIT)", s.Limit()), check.Describe(ex), ex)
	}
	return nil
}

// validHeaders checks clause 1 of the reading on one response.
func (s *World) validHeaders(ex *httpclient.Exchange) error {
	if ex == nil {
		return errors.New("no response to check")
	}
	rl, err := check.HeadersOf(ex, clause.Of(clause.FR7))
	if err != nil {
		return err
	}
	if !s.enabled {
		return nil
	}
	bad := func(exp string) error {
		return scenario.Violate(clause.Of(clause.FR7), "rate-limit headers are valid", exp, check.Describe(ex), ex)
	}
	if int(rl.Limit) != s.Limit() {
		return bad(fmt.Sprintf("X-RateLimit-Limit %d (RL_LIMIT)", s.Limit()))
	}
	if rl.Remaining > rl.Limit {
		return bad("0 <= X-RateLimit-Remaining <= X-RateLimit-Limit")
	}
	lo := ex.Sent.Add(-check.ClockTolerance).Unix()
	hi := ex.Received.Add(s.Env().Config.Window + check.ClockTolerance).Unix()
	if rl.Reset < lo || rl.Reset > hi {
		return bad(fmt.Sprintf("X-RateLimit-Reset in [now, now + window] = [%d, %d] (±2 s)", lo, hi))
	}
	return nil
}

func (s *World) allValidHeaders() error {
	exs := s.Exchanges()
	if len(exs) == 0 {
		return errors.New("no responses to check")
	}
	for _, ex := range exs {
		if ex.Method != http.MethodPost {
			continue
		}
		if err := s.validHeaders(ex); err != nil {
			return err
		}
	}
	return nil
}
