package prd

import (
	"errors"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
)

// need is the last exchange, which a Then step checks.
func (s *World) need() (*httpclient.Exchange, error) {
	if s.Last.Ex == nil {
		return nil, errors.New("no response to check")
	}
	return s.Last.Ex, nil
}

// lastWithHeaders is the last response and its parsed rate-limit headers
// (FR-7).
func (s *World) lastWithHeaders() (*httpclient.Exchange, dialect.RateLimit, error) {
	ex, err := s.need()
	if err != nil {
		return nil, dialect.RateLimit{}, err
	}
	rl, err := check.HeadersOf(ex, clause.Of(clause.FR7))
	return ex, rl, err
}
