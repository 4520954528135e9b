package check

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// ClockTolerance is the contract's clock tolerance.
const ClockTolerance = 2 * time.Second

// Describe is an exchange as a violation's Actual shows it.
func Describe(ex *httpclient.Exchange) string {
	if ex == nil {
		return "no request was sent"
	}
	return ex.Summary()
}

// HeadersOf reads ex's rate-limit fields in the target's dialect (package
// dialect); missing or malformed fields are a violation of refs, and under
// DIALECT=status the header clause is skipped with the dialect as reason.
func HeadersOf(ex *httpclient.Exchange, refs clause.Refs) (dialect.RateLimit, error) {
	if ex.Err == nil {
		if d := ex.Observe().Dialect; d == dialect.Status {
			return dialect.RateLimit{}, scenario.Skip("DIALECT=%s: the target answers with the status code only, so its rate-limit headers are not checked", d)
		}
	}
	rl, err := ex.RateLimit()
	if err != nil {
		return rl, scenario.Violate(refs, "rate-limit headers", fieldsOf(ex.Answer),
			err.Error()+" ("+Describe(ex)+")", ex)
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

// Truncate is a body cut to 200 bytes, for a violation.
func Truncate(b []byte) string {
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}
