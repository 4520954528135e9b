package keyed

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// RetryAfterOf reads a refusal's Retry-After on its own (RFC 9110:
// delay-seconds or an HTTP-date, in whole seconds rounded up), whatever the
// other fields say. ok is false when it is absent under DIALECT=status (not
// a failure there); absent in another dialect, or malformed, is a
// violation.
func (s *World) RetryAfterOf(ex *httpclient.Exchange) (ra int64, ok bool, err error) {
	o := ex.Observe()
	switch {
	case o.RetryAfterErr != nil:
		return 0, false, scenario.Violate(s.Refs(), "Retry-After on a 429", "delay-seconds or an HTTP-date (RFC 9110)", o.RetryAfterErr.Error(), ex)
	case o.Has(dialect.FieldRetryAfter):
		return dialect.Seconds(o.RetryAfter), true, nil
	case o.Dialect == dialect.Status:
		return -1, false, nil
	}
	return 0, false, scenario.Violate(s.Refs(), "Retry-After on a 429", "delay-seconds or an HTTP-date (RFC 9110)", "Retry-After is missing", ex)
}

// AllowedAfterRetryPlus: a request of the key sent Retry-After + extra
// after the last exchange (a 429) came back is allowed.
func (s *World) AllowedAfterRetryPlus(extra time.Duration) error {
	refused := s.Last.Ex
	ra, err := s.RetryToWait(refused)
	if err != nil {
		return err
	}
	after := time.Duration(ra)*time.Second + extra
	if err := s.WaitUntil(refused.Received.Add(after)); err != nil {
		return err
	}
	ex, err := s.SendKeyed()
	if err != nil {
		return err
	}
	if ex.Status/100 != 2 {
		return scenario.Violate(s.Refs(), fmt.Sprintf("a request sent %s after a 429 with Retry-After: %d", after, ra),
			"2xx", fmt.Sprintf("HTTP %d", ex.Status), refused, ex)
	}
	return nil
}

// LimitedBody checks LIMITED_BODY (a JSON pointer's value, a text
// regexp, or none) and a retry value in a JSON body.
func (s *World) LimitedBody(ex *httpclient.Exchange, ra int64) error {
	lb := s.Env().Config.LimitedBody
	if err := lb.Check(ex.RespBody); err != nil {
		return scenario.Violate(s.Refs(), "the 429 body", "LIMITED_BODY="+lb.String(), check.Truncate(ex.RespBody), ex)
	}
	var doc any
	if err := json.Unmarshal(ex.RespBody, &doc); err != nil {
		return nil
	}
	if v, ok := Pointer(doc, "/error/retryAfter"); ok && ra >= 0 {
		if f, isNum := v.(float64); !isNum || f != float64(ra) {
			return scenario.Violate(s.Refs(), "the retry value of the 429 body", fmt.Sprintf("/error/retryAfter = Retry-After = %d", ra), check.Truncate(ex.RespBody), ex)
		}
	}
	return nil
}

// Pointer resolves a JSON pointer (RFC 6901) in doc.
func Pointer(doc any, p string) (any, bool) { return dialect.JSONPointer(doc, p) }

// RetryToWait is a refusal's Retry-After for a step that waits for it: an
// absent or unreadable one skips the step (the 429's own clause reports
// it), so that a header deviation never fails an algorithm clause.
func (s *World) RetryToWait(ex *httpclient.Exchange) (int64, error) {
	ra, ok, err := s.RetryAfterOf(ex)
	switch {
	case err != nil:
		why := "Retry-After is missing"
		if e := ex.Observe().RetryAfterErr; e != nil {
			why = e.Error()
		}
		return 0, scenario.Skip("the 429 gives no readable Retry-After to wait for (%s); the clause of the 429 reports it", why)
	case !ok:
		return 0, scenario.Skip("DIALECT=status: the 429 carries no Retry-After to wait for")
	}
	return ra, nil
}

// RefusalWhereSent checks a refusal as SWC-5 and LB-5 state it: ex has
// LIMITED_STATUS and a body matching LIMITED_BODY, and its Retry-After,
// where sent (absence is no violation in any dialect), is readable and,
// when most > 0, in [1, most] seconds.
func (s *World) RefusalWhereSent(ex *httpclient.Exchange, most int64) error {
	if !ex.Refused() {
		return scenario.Violate(s.Refs(), "a refusal", fmt.Sprintf("HTTP %d (LIMITED_STATUS)", ex.Answer.Status()), fmt.Sprintf("HTTP %d", ex.Status), ex)
	}
	ra := int64(-1)
	if o := ex.Observe(); o.RetryAfterErr != nil || o.Has(dialect.FieldRetryAfter) {
		v, _, err := s.RetryAfterOf(ex)
		if err != nil {
			return err
		}
		if ra = v; most > 0 && (ra < 1 || ra > most) {
			return scenario.Violate(s.Refs(), "Retry-After on a refusal", fmt.Sprintf("in [1, %d]", most), fmt.Sprintf("%d", ra), ex)
		}
	}
	return s.LimitedBody(ex, ra)
}
