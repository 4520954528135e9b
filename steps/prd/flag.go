package prd

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/check"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerFlag registers the steps of the feature flag (AC8, FR-8).
func (s *World) registerFlag(sc scenario.Stepper) {
	sc.Step(`^the flag-off instance$`, s.flagOff)
	sc.Step(`^I send more rides than the limit to the bucket$`, s.sendPastLimit)
	sc.Step(`^Remaining is the sentinel$`, func() error { return s.remainingIs(s.Env().Config.Sentinel, "RL_SENTINEL") })
	sc.Step(`^every response was 200 with the three headers and Remaining equal to the sentinel$`, s.allSentinel)
}

func (s *World) flagOff() error {
	if s.Env().DisabledURL == "" {
		return scenario.Skip("TARGET_URL_DISABLED is not set: AC8 needs a second instance started with BMTC_RATE_LIMIT_ENABLED=false")
	}
	s.SetBase(s.Env().DisabledURL)
	s.enabled = false
	return nil
}

// sendPastLimit sends limit+1 rides one after another, stopping at the
// first that is not a 200 (the Then step reports it).
func (s *World) sendPastLimit() error {
	if s.Bucket.ID == "" {
		s.Bucket.ID = bodytmpl.NewDeviceBucket()
	}
	n := s.Limit() + 1
	s.Batch = scenario.Batch{Exchanges: make([]*httpclient.Exchange, 0, n)}
	for range n {
		ex, err := s.One(s.Client(), bodytmpl.Bucket(s.Bucket.ID))
		if ex != nil {
			s.Batch.Exchanges = append(s.Batch.Exchanges, ex)
		}
		if err != nil {
			return err
		}
		if ex.Status != http.StatusOK {
			break
		}
	}
	return nil
}

func (s *World) allSentinel() error {
	exs := s.Batch.Exchanges
	if len(exs) == 0 {
		return errors.New("no responses")
	}
	for i, ex := range exs {
		rl, err := ex.RateLimit()
		if ex.Status != http.StatusOK || err != nil || int(rl.Remaining) != s.Env().Config.Sentinel {
			return scenario.Violate(clause.Of(clause.AC8, clause.FR8), fmt.Sprintf("request %d of %d on one bucket with the flag off", i+1, len(exs)),
				fmt.Sprintf("200 with the three headers and X-RateLimit-Remaining %d (RL_SENTINEL)", s.Env().Config.Sentinel),
				check.Describe(ex), ex)
		}
	}
	if len(exs) <= s.Limit() {
		return fmt.Errorf("only %d requests were sent, not more than the limit %d", len(exs), s.Limit())
	}
	return nil
}
