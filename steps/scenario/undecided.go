package scenario

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
)

// Undecided reports whether ex is an answer in which the target declined
// to decide: 503 with a valid Retry-After, a fail-closed limiter whose
// store was busy or down (FAIL-1), unless the dialect refuses with 503.
// Such a request was neither allowed nor refused by the limit, so a count
// of allows and refusals cannot say what the limit would have done with
// it.
func Undecided(ex *httpclient.Exchange) bool {
	return ex.Err == nil && ex.Status == http.StatusServiceUnavailable && !ex.Refused() &&
		ValidRetryAfter(strings.TrimSpace(ex.RespHeader.Get(dialect.HeaderRetryAfter)))
}

// ValidRetryAfter reports whether v is a Retry-After value: delay-seconds
// or an HTTP-date (RFC 9110, 10.2.3).
func ValidRetryAfter(v string) bool {
	if n, err := strconv.Atoi(v); err == nil {
		return n >= 0
	}
	_, err := http.ParseTime(v)
	return err == nil
}

// Decided splits exs into the answers that decided (everything but
// Undecided) and those that did not.
func Decided(exs []*httpclient.Exchange) (decided, undecided []*httpclient.Exchange) {
	for _, ex := range exs {
		if Undecided(ex) {
			undecided = append(undecided, ex)
		} else {
			decided = append(decided, ex)
		}
	}
	return decided, undecided
}

// AssumeDecided records that the verdict rests on every one of the n
// requests having been decided, and that undecided of them were not: a
// check calls it when the decided answers alone show no violation that
// holds whatever the undecided ones would have been. The scenario then
// runs again, and is SKIPPED when its store is busy again: a starved
// target's store that did not answer within its timeout is no verdict on
// the limit (TimeSkip).
func (s *State) AssumeDecided(n int, undecided []*httpclient.Exchange) {
	if len(undecided) == 0 {
		return
	}
	s.assumeDecided(func() string { return undecidedWhy(n, undecided) })
}

// AssumeAllDecided records that the verdict rests on every request the
// scenario sends being decided: a scenario whose expectations build on
// each request's spend (several instances on one store, whose store
// contention is the scenario's own doing) has no verdict once one was not.
func (s *State) AssumeAllDecided() {
	s.assumeDecided(func() string {
		all := s.Exchanges()
		_, undecided := Decided(all)
		return undecidedWhy(len(all), undecided)
	})
}

// assumeDecided records the assumption AssumeDecided and
// AssumeAllDecided make, broken as check says.
func (s *State) assumeDecided(check func() string) {
	s.Assume("every request decided within the target's store timeout", check)
}

// undecidedWhy says how many of n requests went undecided, "" for none.
func undecidedWhy(n int, undecided []*httpclient.Exchange) string {
	if len(undecided) == 0 {
		return ""
	}
	body := strings.TrimSpace(string(undecided[0].RespBody))
	if len(body) > 80 {
		body = body[:80] + "…"
	}
	return fmt.Sprintf("%d of %d requests got 503 with Retry-After (the target's store busy or down), the first with body %q",
		len(undecided), n, body)
}
