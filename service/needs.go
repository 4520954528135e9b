package service

import "errors"

// TargetNeeds reports the settings a service of the user's (TARGET_URL or
// TARGET_IMAGE) must give for what it claims, where the embedded reference
// has defaults: token-bucket's RL_BURST and RL_RATE, RL_PENALTIES,
// BYPASS_HEADERS, RL_TIERS. One sentence each.
func (c Config) TargetNeeds() error {
	return errors.Join(c.needsBucket(), c.needsPenalties(), c.needsBypass(), c.needsTiers())
}

// WithEmbeddedDefaults fills what TargetNeeds asks of a user's target with
// the embedded reference's defaults: token-bucket's B and R, and the
// claimed features' RL_PENALTIES, BYPASS_HEADERS and RL_TIERS.
func (c Config) WithEmbeddedDefaults() Config {
	if c.Profile == profile.TokenBucket {
		c = c.WithTokenBucketDefaults()
	}
	return c.WithPenaltyDefaults().WithBypassDefaults().WithTierDefaults()
}
