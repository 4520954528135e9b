package steps

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
)

// registerQuota registers the steps of spending and exhausting a bucket's
// quota (AC1, AC2, AC3, FR-3).
func (s *scenario) registerQuota(sc stepper) {
	sc.Step(`^a fresh device bucket$`, s.freshBucket)
	sc.Step(`^a fresh device bucket with its first ride sent$`, s.freshBucketFirstSent)
	sc.Step(`^a fresh device bucket with (\d+) units? left$`, s.freshBucketWithLeft)
	sc.Step(`^the bucket is exhausted$`, func() error { return precondition(s.leaveUnits(0, false)) })
	sc.Step(`^I send a ride to the bucket$`, s.sendRide)
	sc.Step(`^the response status is (\d+)$`, s.statusIs)
	sc.Step(`^Remaining is the limit minus (\d+)$`, func(n int) error { return s.remainingIs(s.limit()-n, fmt.Sprintf("limit - %d", n)) })
	sc.Step(`^Remaining is (\d+)$`, func(n int) error { return s.remainingIs(n, "") })
	sc.Step(`^the body is a JSON error "([^"]*)"$`, s.bodyIsJSONError)
	sc.Step(`^Retry-After is at most Reset minus now plus 1$`, s.retryAfter)
}

func (s *scenario) freshBucket() error {
	s.bucket.id = bodytmpl.NewDeviceBucket()
	s.bucket.first = nil
	return nil
}

func (s *scenario) sendRide() error {
	if s.bucket.id == "" {
		s.bucket.id = bodytmpl.NewDeviceBucket()
	}
	_, err := s.one(s.theClient(), bodytmpl.Bucket(s.bucket.id))
	return err
}

func (s *scenario) freshBucketFirstSent() error {
	s.bucket.id = bodytmpl.NewDeviceBucket()
	s.bucket.first = nil
	ex, err := s.one(s.theClient(), bodytmpl.Bucket(s.bucket.id))
	if err != nil {
		return precondition(err)
	}
	return precondition(s.expectFirst(ex, s.limit()-1))
}

func (s *scenario) freshBucketWithLeft(n int) error {
	if err := s.freshBucketFirstSent(); err != nil {
		return err
	}
	return precondition(s.leaveUnits(n, false))
}

// expectFirst checks the first response of a fresh bucket (AC1), which
// every quota set-up relies on.
func (s *scenario) expectFirst(ex *httpclient.Exchange, want int) error {
	rl, err := ex.RateLimit()
	if ex.Status != http.StatusOK || err != nil || int(rl.Remaining) != want {
		return violation(clause.Of(clause.AC1), "first request on a fresh bucket",
			fmt.Sprintf("200 with X-RateLimit-Remaining %d", want), describe(ex), ex)
	}
	return nil
}

// leaveUnits brings the current bucket (or the client address's bucket) to
// n units left: through TARGET_DB when given, otherwise by spending units.
func (s *scenario) leaveUnits(n int, address bool) error {
	if n >= s.limit() {
		// The settings cannot set the scenario up: no verdict either way.
		return skip("the scenario needs %d units left, more than RL_LIMIT=%d allows: run it with a larger RL_LIMIT", n, s.limit())
	}
	if s.env.Seeder != nil {
		id := s.bucket.id
		if address {
			id = addrKey(s.theClient().Addr())
		}
		if err := s.env.Seeder.SetRemaining(s.ctx, id, n); err != nil {
			return err
		}
		s.bucket.seeded, s.bucket.left = true, n
		return nil
	}
	return s.spendTo(n, address)
}

// spendTo spends units of the current bucket (or the client address's
// bucket) through the scenario's client, one request after another, until
// n are left: each must be a 200 spending exactly one. Its verdicts rest on
// the requests lying in one window, checked afterwards.
func (s *scenario) spendTo(n int, address bool) error {
	if s.bucket.spent == nil {
		ex, err := s.one(s.theClient(), s.field(address))
		if err != nil {
			return err
		}
		if err := s.validHeaders(ex); err != nil {
			return err
		}
	}
	rl, err := s.bucket.spent.RateLimit()
	if err != nil {
		return err
	}
	from := s.bucket.from
	defer func() {
		to := s.recorded()
		s.assume("one window", func() string { return s.refill(from, to) })
	}()
	for left := int(rl.Remaining); left > n; left-- {
		ex, err := s.one(s.theClient(), s.field(address))
		if err != nil {
			return err
		}
		got, perr := ex.RateLimit()
		if ex.Status != http.StatusOK || perr != nil || int(got.Remaining) != left-1 {
			return violation(clause.Of(clause.AC1, clause.FR4), "each request spends exactly one unit",
				fmt.Sprintf("200 with X-RateLimit-Remaining %d", left-1), describe(ex), ex)
		}
	}
	return nil
}

// field is the device_bucket field of the bucket under test: the device
// bucket, or none for the address's bucket.
func (s *scenario) field(address bool) bodytmpl.BucketField {
	if address {
		return bodytmpl.Omit()
	}
	return bodytmpl.Bucket(s.bucket.id)
}

func (s *scenario) statusIs(code int) error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	if ex.Status != code {
		return violation(s.clauseFor(code), "response status", fmt.Sprintf("HTTP %d", code), describe(ex), ex)
	}
	return nil
}

func (s *scenario) clauseFor(code int) clause.Refs {
	if code == http.StatusTooManyRequests {
		return clause.Of(clause.AC3, clause.FR3)
	}
	if !s.enabled {
		return clause.Of(clause.AC8, clause.FR8)
	}
	return clause.Of(clause.AC1)
}

func (s *scenario) remainingIs(want int, expr string) error {
	ex, rl, err := s.lastWithHeaders()
	if err != nil {
		return err
	}
	if int(rl.Remaining) != want {
		exp := fmt.Sprintf("X-RateLimit-Remaining %d", want)
		if expr != "" {
			exp += " (" + expr + ")"
		}
		return violation(s.clauseForRemaining(), "X-RateLimit-Remaining", exp, describe(ex), s.exchanges()...)
	}
	return nil
}

func (s *scenario) clauseForRemaining() clause.Refs {
	if !s.enabled {
		return clause.Of(clause.AC8, clause.FR8)
	}
	return clause.Of(clause.FR7)
}

func (s *scenario) bodyIsJSONError(want string) error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	var m map[string]any
	if json.Unmarshal(ex.RespBody, &m) != nil || m["error"] != want {
		return violation(clause.Of(clause.AC3, clause.FR3), "429 body",
			fmt.Sprintf(`a JSON object with "error": %q`, want), describe(ex), ex)
	}
	return nil
}

func (s *scenario) retryAfter() error {
	ex, rl, err := s.lastWithHeaders()
	if err != nil {
		return err
	}
	max := rl.Reset - ex.Sent.Unix() + 1
	if rl.RetryAfter < 0 || rl.RetryAfter > max {
		return violation(clause.Of(clause.AC3, clause.FR3), "Retry-After on a 429",
			fmt.Sprintf("Retry-After in seconds, at most Reset - now + 1 = %d", max), describe(ex), ex)
	}
	return nil
}
