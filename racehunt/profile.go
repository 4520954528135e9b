package racehunt

import (
	"fmt"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// ModelFor is the design cfg's profile claims, at quota limit: the race
// hunter's sequential oracle, built by the profile registry. For
// token-bucket limit is the bucket's size B and RL_RATE its refill; for
// leaky-bucket it is what an idle key gets at once, B + 1, drained at
// RL_RATE. FEATURES=penalties wraps the design in model.Penalties with
// RL_PENALTIES' tiers.
func ModelFor(cfg service.Config, limit int) (model.Model, error) {
	p, ok := profile.Lookup(cfg.Profile)
	if !ok {
		return nil, fmt.Errorf("race hunt: no model of PROFILE=%s", cfg.Profile)
	}
	if cfg.Profile == profile.FixedWindow && cfg.WindowAlign == profile.AlignGrid {
		// dialects.md: the anchor is learnt from the first Reset; the
		// hunter does not learn it yet, and a model on another phase
		// would call the correct target non-linearizable.
		return nil, fmt.Errorf("race hunt: WINDOW_ALIGN=%s needs the grid's anchor, which the race hunter does not learn yet", profile.AlignGrid)
	}
	burst := limit
	if cfg.Profile == profile.LeakyBucket {
		burst = limit - 1
	}
	m, err := p.Design(profile.Params{Limit: limit, Window: cfg.Window, Burst: burst, Rate: cfg.Rate, Align: cfg.WindowAlign,
		Delay: cfg.Delay, NoDelay: cfg.NoDelay(), CountsRefused: cfg.Claims(profile.CountsRefused)})
	if err != nil || !cfg.Claims(profile.Penalties) {
		return m, err
	}
	// profiles.md's penalties around the design: a refusal of the design
	// is a violation, and RL_PENALTIES' tiers start penalties.
	if len(cfg.Penalties) == 0 {
		return nil, fmt.Errorf("race hunt: FEATURES=penalties needs RL_PENALTIES, the target's tiers (e.g. %s)", service.DefaultPenalties)
	}
	return model.Penalties{Inner: m, Tiers: cfg.Penalties}, nil
}

// liveQuota is the one quota a live target of cfg enforces: the bucket's
// size B (RL_BURST) for token-bucket, the queue's B + 1 for leaky-bucket,
// RL_LIMIT for every other profile.
func liveQuota(cfg service.Config) int {
	switch cfg.Profile {
	case profile.TokenBucket:
		return cfg.Burst
	case profile.LeakyBucket:
		return cfg.Burst + 1
	}
	return cfg.Limit
}
