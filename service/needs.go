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
	// The sliding-window counter's: SWC-2 is decided 1 s either side of
	// each decision, so it needs W of at least 5 s, and a counter that
	// forgets the previous window shows only when N and W leave that
	// window's weight 2 s into the next one above 1 (N = 10, W = 6 s).
	EmbeddedCounterLimit  = 10
	EmbeddedCounterWindow = 6 * time.Second
)

// SizedForEmbedded is c for the embedded reference: a profile other than
// the PRD (whose suite seeds its buckets through TARGET_DB) takes
// EmbeddedLimit and EmbeddedWindow for what was not given.
func (c Config) SizedForEmbedded(limitGiven, windowGiven bool) Config {
	if profile.IsPRD(c.Profile) {
		return c
	}
	limit, window := EmbeddedLimit, EmbeddedWindow
	if c.Profile == profile.SlidingWindowCounter {
		limit, window = EmbeddedCounterLimit, EmbeddedCounterWindow
	}
	if !limitGiven {
		c.Limit = limit
	}
	if !windowGiven {
		c.Window = window
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
