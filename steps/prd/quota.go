package prd

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerQuota registers the steps of spending and exhausting a bucket's
// quota (AC1, AC2, AC3, FR-3).
func (s *World) registerQuota(sc scenario.Stepper) {
	sc.Step(`^a fresh device bucket$`, s.FreshBucket)
	sc.Step(`^a fresh device bucket with its first ride sent$`, s.freshBucketFirstSent)
	sc.Step(`^a fresh device bucket with (\d+) units? left$`, s.freshBucketWithLeft)
	sc.Step(`^the bucket is exhausted$`, func() error { return scenario.Precondition(s.leaveUnits(0, false)) })
	sc.Step(`^I send a ride to the bucket$`, s.sendRide)
	sc.Step(`^the response status is (\d+)$`, s.statusIs)
	sc.Step(`^Remaining is the limit minus (\d+)$`, func(n int) error { return s.remainingIs(s.Limit()-n, fmt.Sprintf("limit - %d", n)) })
	sc.Step(`^Remaining is (\d+)$`, func(n int) error { return s.remainingIs(n, "") })
	sc.Step(`^the body is a JSON error "([^"]*)"$`, s.bodyIsJSONError)
	sc.Step(`^Retry-After is at most Reset minus now plus 1$`, s.retryAfter)
}

// FreshBucket makes the scenario's bucket a fresh random device bucket.
func (s *World) FreshBucket() error {
	s.Bucket.ID = bodytmpl.NewDeviceBucket()
	s.Bucket.First = nil
	return nil
}

func (s *World) sendRide() error {
	if s.Bucket.ID == "" {
		s.Bucket.ID = bodytmpl.NewDeviceBucket()
	}
	_, err := s.One(s.Client(), bodytmpl.Bucket(s.Bucket.ID))
	return err
}

func (s *World) freshBucketFirstSent() error {
	s.Bucket.ID = bodytmpl.NewDeviceBucket()
	s.Bucket.First = nil
	ex, err := s.One(s.Client(), bodytmpl.Bucket(s.Bucket.ID))
	if err != nil {
		return scenario.Precondition(err)
	}
	return scenario.Precondition(s.ExpectFirst(ex, s.Limit()-1))
}

func (s *World) freshBucketWithLeft(n int) error {
	if err := s.freshBucketFirstSent(); err != nil {
		return err
	}
	return scenario.Precondition(s.leaveUnits(n, false))
}

// ExpectFirst checks the first response of a fresh bucket (AC1), which
// every quota set-up relies on.
func (s *World) ExpectFirst(ex *httpclient.Exchange, want int) error {
	rl, err := ex.RateLimit()
	if ex.Status != http.StatusOK || err != nil || int(rl.Remaining) != want {
		return scenario.Violate(clause.Of(clause.AC1), "first request on a fresh bucket",
			fmt.Sprintf("200 with X-RateLimit-Remaining %d", want), check.Describe(ex), ex)
	}
	return nil
}

// leaveUnits brings the current bucket (or the client address's bucket) to
// n units left: through TARGET_DB when given, otherwise by spending units.
func (s *World) leaveUnits(n int, address bool) error {
	if n >= s.Limit() {
		// The settings cannot set the scenario up: no verdict either way.
		return scenario.Skip("the scenario needs %d units left, more than RL_LIMIT=%d allows: run it with a larger RL_LIMIT", n, s.Limit())
	}
	if s.Env().Seeder != nil {
		id := s.Bucket.ID
		if address {
			id = scenario.AddrKey(s.Client().Addr())
		}
		if err := s.Env().Seeder.SetRemaining(s.Ctx(), id, n); err != nil {
			return err
		}
		s.Bucket.seeded, s.Bucket.left = true, n
		return nil
	}
	return s.SpendTo(n, address)
}

// SpendTo spends units of the current bucket (or the client address's
// bucket) through the scenario's client, one request after another, until
// n are left: each must be a 200 spending exactly one. Its verdicts rest on
// the requests lying in one window, checked afterwards.
func (s *World) SpendTo(n int, address bool) error {
	if s.Bucket.spent == nil {
		ex, err := s.One(s.Client(), s.field(address))
		if err != nil {
			return err
		}
		if err := s.validHeaders(ex); err != nil {
			return err
		}
	}
	rl, err := s.Bucket.spent.RateLimit()
	if err != nil {
		return err
	}
	from := s.Bucket.from
	defer func() {
		to := s.Recorded()
		s.Assume("one window", func() string { return s.Refill(from, to) })
	}()
	for left := int(rl.Remaining); left > n; left-- {
		ex, err := s.One(s.Client(), s.field(address))
		if err != nil {
			return err
		}
		got, perr := ex.RateLimit()
		if ex.Status != http.StatusOK || perr != nil || int(got.Remaining) != left-1 {
			return scenario.Violate(clause.Of(clause.AC1, clause.FR4), "each request spends exactly one unit",
				fmt.Sprintf("200 with X-RateLimit-Remaining %d", left-1), check.Describe(ex), ex)
		}
	}
	return nil
}

// field is the device_bucket field of the bucket under test: the device
// bucket, or none for the address's bucket.
func (s *World) field(address bool) bodytmpl.BucketField {
	if address {
		return bodytmpl.Omit()
	}
	return bodytmpl.Bucket(s.Bucket.ID)
}

func (s *World) statusIs(code int) error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	if ex.Status != code {
		return scenario.Violate(s.clauseFor(code), "response status", fmt.Sprintf("HTTP %d", code), check.Describe(ex), ex)
	}
	return nil
}

func (s *World) clauseFor(code int) clause.Refs {
	if code == http.StatusTooManyRequests {
		return clause.Of(clause.AC3, clause.FR3)
	}
	if !s.enabled {
		return clause.Of(clause.AC8, clause.FR8)
	}
	return clause.Of(clause.AC1)
}

func (s *World) remainingIs(want int, expr string) error {
	ex, rl, err := s.lastWithHeaders()
	if err != nil {
		return err
	}
	if int(rl.Remaining) != want {
		exp := fmt.Sprintf("X-RateLimit-Remaining %d", want)
		if expr != "" {
			exp += " (" + expr + ")"
		}
		return scenario.Violate(s.clauseForRemaining(), "X-RateLimit-Remaining", exp, check.Describe(ex), s.Exchanges()...)
	}
	return nil
}

func (s *World) clauseForRemaining() clause.Refs {
	if !s.enabled {
		return clause.Of(clause.AC8, clause.FR8)
	}
	return clause.Of(clause.FR7)
}

func (s *World) bodyIsJSONError(want string) error {
	ex, err := s.need()
	if err != nil {
		return err
	}
	var m map[string]any
	if json.Unmarshal(ex.RespBody, &m) != nil || m["error"] != want {
		return scenario.Violate(clause.Of(clause.AC3, clause.FR3), "429 body",
			fmt.Sprintf(`a JSON object with "error": %q`, want), check.Describe(ex), ex)
	}
	return nil
}

func (s *World) retryAfter() error {
	ex, rl, err := s.lastWithHeaders()
	if err != nil {
		return err
	}
	max := rl.Reset - ex.Sent.Unix() + 1
	if rl.RetryAfter < 0 || rl.RetryAfter > max {
		return scenario.Violate(clause.Of(clause.AC3, clause.FR3), "Retry-After on a 429",
			fmt.Sprintf("Retry-After in seconds, at most Reset - now + 1 = %d", max), check.Describe(ex), ex)
	}
	return nil
}
