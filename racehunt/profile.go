package racehunt

import (
	"fmt"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// ModelFor is the design cfg's profile claims, at quota limit: the race
// hunter's sequential oracle, built by the profile registry. For
// token-bucket limit is the bucket's size B and RL_RATE its refill.
func ModelFor(cfg service.Config, limit int) (model.Model, error) {
	p, ok := profile.Lookup(cfg.Profile)
	if !ok {
		return nil, fmt.Errorf("race hunt: no model of PROFILE=%s", cfg.Profile)
	}
	return p.Design(profile.Params{Limit: limit, Window: cfg.Window, Burst: limit, Rate: cfg.Rate, Align: cfg.WindowAlign})
}

// liveQuota is the one quota a live target of cfg enforces: the bucket's
// size B (RL_BURST) for token-bucket, RL_LIMIT for every other profile.
func liveQuota(cfg service.Config) int {
	if cfg.Profile == profile.TokenBucket {
		return cfg.Burst
	}
	return cfg.Limit
}
