package service

import (
	"errors"
	"time"

	"github.com/rlspec/rlspec/profile"
)

// TargetNeeds reports the settings a service of the user's (TARGET_URL or
// TARGET_IMAGE) must give for what it claims, where the embedded reference
// has defaults: token-bucket's RL_BURST and RL_RATE, RL_PENALTIES,
// BYPASS_HEADERS, RL_TIERS. One sentence each.
func (c Config) TargetNeeds() error {
	return errors.Join(c.needsBucket(), c.needsPenalties(), c.needsBypass(), c.needsTiers())
}

// Sizes of a generic profile's embedded run (N, W), used where RL_LIMIT and
// RL_WINDOW are not given: every clause decidable within seconds, also on a
// starved machine (issue 27: the contract's 500 per hour made SL-2 send 501
// requests and SL-4 wait an hour).
const (
	EmbeddedLimit  = 5
	EmbeddedWindow = 3 * time.Second
)

// SizedForEmbedded is c for the embedded reference: a profile other than
// the PRD (whose suite seeds its buckets through TARGET_DB) takes
// EmbeddedLimit and EmbeddedWindow for what was not given.
func (c Config) SizedForEmbedded(limitGiven, windowGiven bool) Config {
	if profile.IsPRD(c.Profile) {
		return c
	}
	if !limitGiven {
		c.Limit = EmbeddedLimit
	}
	if !windowGiven {
		c.Window = EmbeddedWindow
	}
	return c
}

// WithEmbeddedDefaults fills what TargetNeeds asks of a user's target with
// the embedded reference's defaults: token-bucket's and leaky-bucket's B
// and R, and the claimed features' RL_PENALTIES, BYPASS_HEADERS and
// RL_TIERS.
func (c Config) WithEmbeddedDefaults() Config {
	if c.Profile == profile.TokenBucket || c.Profile == profile.LeakyBucket {
		c = c.WithTokenBucketDefaults()
	}
	return c.WithPenaltyDefaults().WithBypassDefaults().WithTierDefaults()
}
