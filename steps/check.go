package steps

import (
	"errors"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
)

// clockTolerance is the contract's clock tolerance.
const clockTolerance = 2 * time.Second

// describe is an exchange as a violation's Actual shows it.
func describe(ex *httpclient.Exchange) string {
	if ex == nil {
		return "no request was sent"
	}
	return ex.Summary()
}

// need is the last exchange, which a Then step checks.
func (s *scenario) need() (*httpclient.Exchange, error) {
	if s.last.ex == nil {
		return nil, errors.New("no response to check")
	}
	return s.last.ex, nil
}

// headersOf reads ex's rate-limit fields in the target's dialect (package
// dialect); missing or malformed fields are a violation of refs, and under
// DIALECT=status the header clause is skipped with the dialect as reason.
func (s *scenario) headersOf(ex *httpclient.Exchange, refs clause.Refs) (dialect.RateLimit, error) {
	if ex.Err == nil {
		if d := ex.Observe().Dialect; d == dialect.Status {
			return dialect.RateLimit{}, skip("DIALECT=%s: the target answers with the status code only, so its rate-limit headers are not checked", d)
		}
	}
	rl, err := ex.RateLimit()
	if err != nil {
		return rl, violation(refs, "rate-limit headers", fieldsOf(ex.Answer),
			err.Error()+" ("+describe(ex)+")", ex)
	}
	return rl, nil
}

// fieldsOf names the fields a dialect reads, for a violation's Expected.
func fieldsOf(a dialect.Settings) string {
	switch a.Dialect {
	case dialect.Fields:
		return "RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset (ratelimit-fields) as non-negative integers"
	case dialect.Dict:
		return "RateLimit: limit=N, remaining=R, reset=S (ratelimit-dict)"
	case dialect.IETF:
		return "RateLimit-Policy and RateLimit structured fields with q, w, r and t (ietf)"
	}
	p := a.Prefix
	if p == "" {
		p = dialect.DefaultPrefix
	}
	f := "non-negative integers"
	if a.ResetFormat.Concrete() {
		f += ", Reset as " + a.ResetFormat.Describe()
	}
	return fmt.Sprintf("%sLimit, %sRemaining and %sReset as %s", p, p, p, f)
}

// lastWithHeaders is the last response and its parsed rate-limit headers
// (FR-7).
func (s *scenario) lastWithHeaders() (*httpclient.Exchange, dialect.RateLimit, error) {
	ex, err := s.need()
	if err != nil {
		return nil, dialect.RateLimit{}, err
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
