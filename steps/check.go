package steps

import (
	"errors"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/service"
)

// clockTolerance is the contract's clock tolerance.
const clockTolerance = 2 * time.Second

// describe is an exchange as a violation's Actual shows it.
func describe(ex *service.Exchange) string {
	if ex == nil {
		return "no request was sent"
	}
	return ex.Summary()
}

// need is the last exchange, which a Then step checks.
func (s *scenario) need() (*service.Exchange, error) {
	if s.last.ex == nil {
		return nil, errors.New("no response to check")
	}
	return s.last.ex, nil
}

// headersOf parses ex's rate-limit headers; missing or malformed headers
// are a violation of refs.
func (s *scenario) headersOf(ex *service.Exchange, refs clause.Refs) (service.RateLimit, error) {
	rl, err := ex.RateLimit()
	if err != nil {
		return rl, violation(refs, "rate-limit headers",
			"X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset as non-negative integers",
			err.Error()+" ("+describe(ex)+")", ex)
	}
	return rl, nil
}

// lastWithHeaders is the last response and its parsed rate-limit headers
// (FR-7).
func (s *scenario) lastWithHeaders() (*service.Exchange, service.RateLimit, error) {
	ex, err := s.need()
	if err != nil {
		return nil, service.RateLimit{}, err
	}
	rl, err := s.headersOf(ex, clause.Of(clause.FR7))
	return ex, rl, err
}

func truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
