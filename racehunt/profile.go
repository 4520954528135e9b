package racehunt

import (
	"fmt"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// ModelFor is the design cfg's profile claims, at quota limit: the race
// hunter's sequential oracle, built by the profile registry and sized by
// its entry to that quota (Profile.AtQuota): for token-bucket limit is the
// bucket's size B and RL_RATE its refill; for leaky-bucket it is what an
// idle key gets at once, B + 1, drained at RL_RATE. FEATURES=penalties wraps the design in model.Penalties with
// RL_PENALTIES' tiers.
func ModelFor(cfg service.Config, limit int) (model.Model, error) {
	p, ok := profile.Lookup(cfg.Profile)
	if !ok {
		return nil, fmt.Errorf("race hunt: no model of PROFILE=%s", cfg.Profile)
	}
	if cfg.WindowAlign == profile.AlignGrid {
		// dialects.md: the anchor is learnt from the first Reset; the
		// hunter does not learn it yet, and a model on another phase
		// would call the correct target non-linearizable.
		return nil, fmt.Errorf("race hunt: WINDOW_ALIGN=%s needs the grid's anchor, which the race hunter does not learn yet", profile.AlignGrid)
	}
	m, err := p.Design(p.AtQuota(cfg.Params(), limit))
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
