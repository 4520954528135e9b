package prd

import (
	"fmt"
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/steps/scenario"
)

// firstRequestCause is what went wrong with the first request of the
// scenario's fresh bucket (or address), "" when nothing did. A fresh bucket
// must answer its first request with 200 and Remaining = limit - 1 (AC1);
// when it does not, every later check on the bucket rests on a broken
// set-up.
func (s *World) firstRequestCause() string {
	ex := s.Bucket.First
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
	if want := int64(s.Limit() - 1); rl.Remaining != want {
		return fmt.Sprintf("%s got X-RateLimit-Remaining %d, not %d", what, rl.Remaining, want)
	}
	return ""
}

// attribute sets v's root cause: a broken first request of a fresh bucket
// is the cause of any failure after it, and a precondition of every
// scenario but the ones checking AC1 itself; otherwise the engine makes the
// check that failed the cause. (Package ops charges MI-1 first.)
func (s *World) attribute(v *scenario.Violation, tags clause.Refs) {
	if c := s.firstRequestCause(); c != "" {
		v.Cause = c
		if !tags.Has(clause.AC1) {
			v.Precondition = true
		}
	}
}

// explainSpend adds to a failure what was spent, where the clause turns on
// it: under invalid device_bucket values (AC9).
func (s *World) explainSpend(v *scenario.Violation) {
	if msg := s.spentUnderInvalid(); msg != "" {
		v.Actual += "; " + msg
	}
}
