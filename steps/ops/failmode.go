package ops

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerFailMode registers the steps of store outages (FAIL-1
// fail-closed, FAIL-2 fail-open). A scenario that takes the store away runs
// alone (scenario.Env.outage) and brings the store back when it ends, on every path.
func (s *state) registerFailMode(sc scenario.Stepper) {
	sc.Step(`^the target claims (fail-closed|fail-open)$`, s.claimsFailMode)
	sc.Step(`^the store goes down$`, s.storeGoesDown)
	sc.Step(`^the store comes back$`, s.storeComesBack)
	sc.Step(`^I send (\d+) rides to the bucket while the store is down$`, s.sendWhileDown)
	sc.Step(`^none of them was allowed and each carried Retry-After$`, s.noneAllowed)
	sc.Step(`^every one of them was allowed$`, s.allAllowed)
	sc.Step(`^within (\d+) seconds a ride to the bucket gets 200 with Remaining at most the limit minus (\d+)$`, func(secs, n int) error { return s.backWithSpent(secs, n, clause.Of(clause.FAIL1), "the outage") })
	sc.Step(`^within (\d+) seconds a ride to the bucket gets 200$`, func(secs int) error {
		_, err := s.answeredAgain(secs, s.failModeRefs(), "the store came back")
		return err
	})
}

// takesStore reports whether a scenario takes the store away or restarts
// the target (its tags): such a scenario runs alone.
func takesStore(sc *godog.Scenario) bool {
	names := make([]string, len(sc.Tags))
	for i, t := range sc.Tags {
		names[i] = t.Name
	}
	return TakesStore(names)
}

// TakesStore reports whether a scenario with these tags takes the store
// away or restarts the target (FAIL-1, FAIL-2, PS-1): it runs alone.
func TakesStore(tags []string) bool {
	for _, t := range tags {
		if id := clause.ID(strings.TrimPrefix(t, "@")); id == clause.FAIL1 || id == clause.FAIL2 || id == clause.PS1 {
			return true
		}
	}
	return false
}

func (s *state) claimsFailMode(feature string) error {
	if err := s.Env().Claimed(profile.Feature(feature)); err != nil {
		return err
	}
	if s.Env().Store == nil {
		return scenario.Skip("no way to take the target's store away: set STORE_DOWN_CMD and STORE_UP_CMD (rlspec does it itself for the embedded reference)")
	}
	return nil
}

func (s *state) storeGoesDown() error {
	s.storeDown = true // StoreUp at the end even when StoreDown half-failed
	if err := s.Env().Store.StoreDown(s.Ctx()); err != nil {
		return fmt.Errorf("take the store away: %w", err)
	}
	return nil
}

func (s *state) storeComesBack() error {
	s.storeDown = false
	if err := s.Env().Store.StoreUp(s.Ctx()); err != nil {
		return fmt.Errorf("bring the store back: %w", err)
	}
	return nil
}

// restoreStore brings the store back after a scenario that left it down.
func (s *state) restoreStore() {
	if !s.storeDown || s.Env().Store == nil {
		return
	}
	s.storeDown = false
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := s.Env().Store.StoreUp(ctx); err != nil {
		s.Fail(fmt.Errorf("bring the store back after the scenario: %w", err))
	}
}

// sendWhileDown sends n fresh rides at once; the batch keeps them.
func (s *state) sendWhileDown(n int) error {
	reqs, err := s.Requests(n, bodytmpl.Bucket(s.prd.Bucket.ID))
	if err != nil {
		return err
	}
	// Concurrently: a store that is down may keep each request waiting for
	// its busy timeout before it answers.
	s.prd.Batch = scenario.Batch{Sent: n}
	s.prd.Batch.Exchanges, err = s.Fire(s.Client(), reqs, time.Time{})
	return err
}

func (s *state) noneAllowed() error {
	refs := clause.Of(clause.FAIL1)
	for i, ex := range s.prd.Batch.Exchanges {
		where := fmt.Sprintf("request %d of %d while the store was down", i+1, len(s.prd.Batch.Exchanges))
		switch {
		case ex.Status == http.StatusOK:
			return scenario.Violate(refs, where, "503 (or 429) with Retry-After, never 200", check.Describe(ex)+": allowed without its store", ex)
		case ex.Status != http.StatusServiceUnavailable && ex.Status != http.StatusTooManyRequests:
			return scenario.Violate(refs, where, "503 (or 429) with Retry-After", check.Describe(ex), ex)
		}
		if v := strings.TrimSpace(ex.RespHeader.Get(dialect.HeaderRetryAfter)); !scenario.ValidRetryAfter(v) {
			return scenario.Violate(refs, where, "a Retry-After header (seconds or an HTTP date)", fmt.Sprintf("%s; Retry-After %q", check.Describe(ex), v), ex)
		}
	}
	return nil
}

func (s *state) allAllowed() error {
	exs := s.prd.Batch.Exchanges
	allowed := 0
	var bad *httpclient.Exchange
	for _, ex := range exs {
		if ex.Status == http.StatusOK {
			allowed++
		} else if bad == nil {
			bad = ex
		}
	}
	if bad != nil {
		return scenario.Violate(clause.Of(clause.FAIL2), "requests while the store was down",
			fmt.Sprintf("all %d allowed (200), none a 5xx", len(exs)),
			fmt.Sprintf("%d of %d let through; %s", allowed, len(exs), check.Describe(bad)), exs...)
	}
	return nil
}

// answeredAgain sends rides until one is not a 503 (the store may take a
// moment to come back), up to secs seconds, and checks that it is a 200:
// refs is the clause, after the event it follows.
func (s *state) answeredAgain(secs int, refs clause.Refs, after string) (*httpclient.Exchange, error) {
	deadline := s.Env().Clock().Add(time.Duration(secs) * time.Second)
	for {
		ex, err := s.prd.One(s.Client(), bodytmpl.Bucket(s.prd.Bucket.ID))
		if err != nil {
			return ex, err
		}
		if ex.Status != http.StatusServiceUnavailable || !s.Env().Clock().Before(deadline) {
			if ex.Status != http.StatusOK {
				return ex, scenario.Violate(refs, "the first ride after "+after,
					fmt.Sprintf("200 within %d s", secs), check.Describe(ex), ex)
			}
			return ex, nil
		}
		// Polling a condition with a deadline, not synchronisation by sleep.
		if err := s.WaitUntil(s.Env().Clock().Add(200 * time.Millisecond)); err != nil {
			return ex, err
		}
	}
}

// backWithSpent checks that the quota spent before an event (the outage,
// a restart) is still spent: the first ride allowed after it has at most
// limit - n left; refs is the clause that says so.
func (s *state) backWithSpent(secs, n int, refs clause.Refs, event string) error {
	ex, err := s.answeredAgain(secs, refs, event)
	if err != nil {
		return err
	}
	rl, err := check.HeadersOf(ex, clause.Of(clause.FR7))
	if err != nil {
		return err
	}
	if want := int64(s.Limit() - n); rl.Remaining > want {
		return scenario.Violate(refs, "quota spent before "+event+" is still spent after it",
			fmt.Sprintf("X-RateLimit-Remaining at most %d (limit - %d)", want, n), check.Describe(ex), ex)
	}
	return nil
}

// failModeRefs is the clause the scenario checks.
func (s *state) failModeRefs() clause.Refs {
	if s.Env().Config.Claims(profile.FailOpen) {
		return clause.Of(clause.FAIL2)
	}
	return clause.Of(clause.FAIL1)
}
