package steps

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
)

// registerHeaders registers the checks of the rate-limit headers (FR-7).
func (s *scenario) registerHeaders(sc stepper) {
	sc.Step(`^Limit is the configured limit$`, s.limitIsConfigured)
	sc.Step(`^the response carries valid rate-limit headers$`, func() error { return s.validHeaders(s.last.ex) })
	sc.Step(`^every response so far carried valid rate-limit headers$`, s.allValidHeaders)
}

func (s *scenario) limitIsConfigured() error {
	ex, rl, err := s.lastWithHeaders()
	if err != nil {
		return err
	}
	if int(rl.Limit) != s.limit() {
		return violation(clause.Of(clause.FR7), "X-RateLimit-Limit", fmt.Sprintf("%d (RL_LIMIT)", s.limit()), describe(ex), ex)
	}
	return nil
}

// validHeaders checks clause 1 of the reading on one response.
func (s *scenario) validHeaders(ex *httpclient.Exchange) error {
	if ex == nil {
		return errors.New("no response to check")
	}
	rl, err := s.headersOf(ex, clause.Of(clause.FR7))
	if err != nil {
		return err
	}
	if !s.enabled {
		return nil
	}
	bad := func(exp string) error {
		return violation(clause.Of(clause.FR7), "rate-limit headers are valid", exp, describe(ex), ex)
	}
	if int(rl.Limit) != s.limit() {
		return bad(fmt.Sprintf("X-RateLimit-Limit %d (RL_LIMIT)", s.limit()))
	}
	if rl.Remaining > rl.Limit {
		return bad("0 <= X-RateLimit-Remaining <= X-RateLimit-Limit")
	}
	lo := ex.Sent.Add(-clockTolerance).Unix()
	hi := ex.Received.Add(s.env.Config.Window + clockTolerance).Unix()
	if rl.Reset < lo || rl.Reset > hi {
		return bad(fmt.Sprintf("X-RateLimit-Reset in [now, now + window] = [%d, %d] (±2 s)", lo, hi))
	}
	return nil
}

func (s *scenario) allValidHeaders() error {
	exs := s.exchanges()
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
