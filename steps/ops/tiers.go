package ops

import (
	"fmt"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// tierRun is what one tier answered the key: its N requests and the one
// after.
type tierRun struct {
	tier      model.Tier
	exchanges []*httpclient.Exchange
}

// registerTiers registers the steps of feature tiers (SL-9).
func (s *state) registerTiers(sc scenario.Stepper) {
	sc.Step(`^each tier in turn gets N requests of the key and one more$`, s.spendTiers)
	sc.Step(`^every tier allowed its own N, said Limit N, and refused the next with Retry-After within its own W$`, s.tiersOwnCount)
}

// tiers are RL_TIERS followed by the profile's endpoint.
func (s *state) allTiers() []model.Tier {
	cfg := s.Env().Config
	return append(append([]model.Tier(nil), cfg.Tiers...), model.Tier{Path: cfg.Path, Method: cfg.Method, Limit: cfg.Limit, Window: cfg.Window})
}

// tierRequest is a request of the scenario's key as tier t is keyed: its
// own key (RL_TIERS "key": a header, a body field, or "ip": no key, the
// scenario's client address) or, without one, KEY.
func (s *state) tierRequest(t model.Tier) (httpclient.Request, error) {
	if t.Key == "" {
		return s.key.Keyed(s.key.Key.Value), nil
	}
	k, err := service.ParseKey(t.Key)
	if err != nil {
		return httpclient.Request{}, scenario.Precondition(fmt.Errorf("RL_TIERS: tier %s: key: %w", t.Path, err))
	}
	tc := s.Env().Config
	tc.Key = k
	return tc.KeyedRequest(s.key.Key.Value), nil
}

// spendTiers sends, tier after tier, the tier's N requests of the key and
// one more, each tier through a client of its own path.
func (s *state) spendTiers() error {
	cfg := s.Env().Config
	if err := s.Env().Configured(profile.Tiers, len(cfg.Tiers) > 0, "tiers are claimed but RL_TIERS gives none"); err != nil {
		return err
	}
	s.tierRuns = nil
	for _, t := range s.allTiers() {
		tc := cfg
		tc.Path = t.Path
		c := httpclient.New(tc, s.Base())
		s.Track(c)
		run := tierRun{tier: t}
		for range t.Limit + 1 {
			r, err := s.tierRequest(t)
			if err != nil {
				return err
			}
			r.Method = t.Method
			ex, err := s.Send(c, r)
			if ex != nil {
				run.exchanges = append(run.exchanges, ex)
			}
			if err != nil {
				return err
			}
		}
		s.tierRuns = append(s.tierRuns, run)
	}
	return nil
}

// tiersOwnCount is SL-9 on the recorded runs.
func (s *state) tiersOwnCount() error {
	for _, run := range s.tierRuns {
		t, n := run.tier, run.tier.Limit
		for i, ex := range run.exchanges {
			where := fmt.Sprintf("tier %s %s (N=%d, W=%s), request %d of %d, after the tiers before it were spent", t.Method, t.Path, n, t.Window, i+1, n+1)
			if i < n {
				if ex.Status/100 != 2 {
					return scenario.Violate(clause.Of(clause.SL9), where, "2xx: a tier's own N", fmt.Sprintf("HTTP %d", ex.Status), ex)
				}
				if rl, err := ex.RateLimit(); err == nil && rl.Limit != int64(n) {
					return scenario.Violate(clause.Of(clause.SL9), where, fmt.Sprintf("Limit %d", n), fmt.Sprintf("Limit %d", rl.Limit), ex)
				}
				continue
			}
			if !ex.Refused() {
				return scenario.Violate(clause.Of(clause.SL9), where, "429: the tier's N spent", fmt.Sprintf("HTTP %d", ex.Status), ex)
			}
			ra, ok, err := s.key.RetryAfterOf(ex)
			if err != nil {
				return err
			}
			if w := int64(t.Window / time.Second); ok && (ra < 1 || ra > w) {
				return scenario.Violate(clause.Of(clause.SL9), where, fmt.Sprintf("Retry-After in [1, %d]: the tier's own W", w), fmt.Sprintf("%d", ra), ex)
			}
		}
	}
	return nil
}
