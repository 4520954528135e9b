package ops

import (
	"fmt"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// registerBypass registers the steps of feature bypass (SL-10).
func (s *state) registerBypass(sc scenario.Stepper) {
	sc.Step(`^N\+5 requests are sent with the key as a bypass identity$`, s.sendBypass)
	sc.Step(`^all of them were allowed$`, s.allOfBatchAllowed)
	sc.Step(`^the key without the bypass headers then gets N requests allowed$`, s.normalAfterBypass)
}

// sendBypass sends N+5 requests of the key with BYPASS_HEADERS, one after
// another; the batch keeps them.
func (s *state) sendBypass() error {
	cfg := s.Env().Config
	if err := s.Env().Configured(profile.Bypass, len(cfg.BypassHeaders) > 0, "bypass is claimed but BYPASS_HEADERS names no header"); err != nil {
		return err
	}
	if s.key.Key.Client == nil {
		return scenario.Precondition(fmt.Errorf("no key: the scenario must start with a fresh key"))
	}
	s.key.Batch = scenario.Batch{Sent: s.Limit() + 5}
	for range s.Limit() + 5 {
		r := s.key.Keyed(s.key.Key.Value)
		r.Header = r.Header.Clone()
		if r.Header == nil {
			r.Header = cfg.BypassHeaders.Clone()
		}
		for k, vs := range cfg.BypassHeaders {
			r.Header[k] = append([]string(nil), vs...)
		}
		ex, err := s.Send(s.key.Key.Client, r)
		if ex != nil {
			s.key.Batch.Exchanges = append(s.key.Batch.Exchanges, ex)
			s.key.Last = scenario.Last{Req: r, Ex: ex}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// allOfBatchAllowed: every exchange of the last batch got a 2xx.
func (s *state) allOfBatchAllowed() error {
	for i, ex := range s.key.Batch.Exchanges {
		if ex.Status/100 != 2 {
			return scenario.Violate(clause.Of(clause.SL10), fmt.Sprintf("bypass request %d of %d", i+1, len(s.key.Batch.Exchanges)),
				"2xx", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
	}
	return nil
}

// normalAfterBypass: the key, now without the bypass headers, still has
// its whole quota.
func (s *state) normalAfterBypass() error {
	run, err := s.key.SendRun(s.Limit())
	if err != nil {
		return err
	}
	for i, ex := range run {
		if ex.Status/100 != 2 {
			return scenario.Violate(clause.Of(clause.SL10), fmt.Sprintf("request %d of %d without the bypass headers, after %d bypass requests", i+1, len(run), len(s.key.Batch.Exchanges)),
				"2xx: bypass requests spend nothing", fmt.Sprintf("HTTP %d", ex.Status), ex)
		}
	}
	return nil
}
