package racehunt

import (
	"fmt"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/service"
)

// isPRD reports whether p is the PRD (the default profile): POST rides with
// device buckets and idempotency keys, checked against the PRD's own
// oracle. Every other profile sends the profile's key and method and is
// checked against its model.Model (StepOracle).
func isPRD(p profile.Name) bool { return p == "" || p == profile.PRD }

// ModelFor is the design cfg's profile claims, at quota limit: the race
// hunter's sequential oracle. A design added to model/ plugs in here with
// one case.
func ModelFor(cfg service.Config, limit int) (model.Model, error) {
	switch cfg.Profile {
	case "", profile.PRD:
		return model.NewPRD(limit, cfg.Window)
	case profile.SlidingLog:
		return model.NewSlidingLog(limit, cfg.Window)
	case profile.FixedWindow:
		if cfg.WindowAlign == profile.AlignFirstRequest {
			return model.NewPRD(limit, cfg.Window)
		}
		return model.NewEpoch(limit, cfg.Window)
	case profile.TokenBucket:
		// limit is the bucket's size B; RL_RATE its refill.
		return model.NewTokenBucket(limit, cfg.Rate)
	}
	return nil, fmt.Errorf("race hunt: no model of PROFILE=%s yet", cfg.Profile)
}
