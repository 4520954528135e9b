package steps

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/rlspec/rlspec/clause"
)

// precondition marks a violation found while a step set the scenario up:
// the scenario never reached the clause it checks.
func precondition(err error) error {
	var v *Violation
	if errors.As(err, &v) {
		v.Precondition = true
	}
	return err
}

// firstRequestCause is what went wrong with the first request of the
// scenario's fresh bucket (or address), "" when nothing did. A fresh bucket
// must answer its first request with 200 and Remaining = limit - 1 (AC1);
// when it does not, every later check on the bucket rests on a broken
// set-up.
func (s *scenario) firstRequestCause() string {
	ex := s.bucket.first
	if ex == nil || !s.enabled {
		return ""
	}
	const what = "the first request of a fresh bucket"
	if ex.Err != nil {
		return what + " got no response"
	}
	if ex.Status != http.StatusOK {
		return fmt.Sprintf("%s got HTTP %d", what, ex.Status)
	}
	rl, err := ex.RateLimit()
	if err != nil {
		return what + " got no valid rate-limit headers"
	}
	if want := int64(s.limit() - 1); rl.Remaining != want {
		return fmt.Sprintf("%s got X-RateLimit-Remaining %d, not %d", what, rl.Remaining, want)
	}
	return ""
}

// attribute sets v's root cause: a broken first request of a fresh bucket
// is the cause of any failure after it, and a precondition of every
// scenario but the ones checking AC1 itself; otherwise the cause is the
// check that failed.
func (s *scenario) attribute(v *Violation, tags []clause.ID) {
	if clause.Refs(tags).Has(clause.MI1) {
		chargeMI1(v)
	}
	if c := s.firstRequestCause(); c != "" {
		v.Cause = c
		if !clause.Refs(tags).Has(clause.AC1) {
			v.Precondition = true
		}
		return
	}
	v.Cause = v.Clause.String() + ": " + v.Check
}

// causeOf is the root cause of a failure that is not a violation: its
// first line.
func causeOf(err error) string {
	line, _, _ := strings.Cut(err.Error(), "\n")
	return line
}

// explainSpend adds to a failure what was spent, where the clause turns on
// it: under invalid device_bucket values (AC9).
func (s *scenario) explainSpend(v *Violation) {
	if msg := s.spentUnderInvalid(); msg != "" {
		v.Actual += "; " + msg
	}
}
