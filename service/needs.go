package service

import (
	"errors"

	"github.com/rlspec/rlspec/profile"
)

// TargetNeeds reports the settings a service of the user's (TARGET_URL or
// TARGET_IMAGE) must give for what it claims, where the embedded reference
// has defaults: token-bucket's RL_BURST and RL_RATE, RL_PENALTIES,
// BYPASS_HEADERS, RL_TIERS. One sentence each.
func (c Config) TargetNeeds() error {
	return errors.Join(c.needsBucket(), c.needsPenalties(), c.needsBypass(), c.needsTiers())
}

// SizedForEmbedded is c for the embedded reference: a profile other than
// the PRD (whose suite seeds its buckets through TARGET_DB) takes its
// registry entry's quick size for what was not given.
func (c Config) SizedForEmbedded(limitGiven, windowGiven bool) Config {
	quick := profile.Of(c.Profile).Quick
	if profile.IsPRD(c.Profile) || quick == (profile.Size{}) {
		return c
	}
	if !limitGiven {
		c.Limit = quick.Limit
	}
	if !windowGiven {
		c.Window = quick.Window
	}
	return c
}

// WithEmbeddedDefaults fills what TargetNeeds asks of a user's target with
// the embedded reference's defaults: B and R of a design sized by them
// (token-bucket, leaky-bucket), and the claimed features' RL_PENALTIES,
// BYPASS_HEADERS and RL_TIERS.
func (c Config) WithEmbeddedDefaults() Config {
	if profile.Of(c.Profile).SizedByRate() {
		c = c.WithTokenBucketDefaults()
	}
	return c.WithPenaltyDefaults().WithBypassDefaults().WithTierDefaults()
}
