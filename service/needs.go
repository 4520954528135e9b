package service

import (
	"errors"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// TargetNeeds reports the settings a service of the user's (TARGET_URL or
// TARGET_IMAGE) must give for what it claims, where the embedded reference
// has defaults: token-bucket's RL_BURST and RL_RATE, RL_PENALTIES,
// BYPASS_HEADERS, RL_TIERS. One sentence each.
func (c Config) TargetNeeds() error {
	errs := []error{c.needsBucket()}
	for _, f := range featureSettings {
		if c.Claims(f.feature) && !f.given(c) {
			errs = append(errs, errors.New(f.needs))
		}
	}
	return errors.Join(errs...)
}

// featureSetting is the setting a claimed feature needs of a user's
// target, which the embedded reference has a default for.
type featureSetting struct {
	feature profile.Feature
	given   func(Config) bool
	needs   string        // what TargetNeeds says when it is not given
	fill    func(*Config) // the embedded reference's default
}

// featureSettings are RL_PENALTIES, BYPASS_HEADERS and RL_TIERS, in the
// order TargetNeeds names them.
var featureSettings = []featureSetting{
	{profile.Penalties, func(c Config) bool { return len(c.Penalties) > 0 },
		"FEATURES=penalties needs RL_PENALTIES, the target's penalty tiers as count:duration,… (e.g. RL_PENALTIES=2:5s,3:9s)",
		func(c *Config) { c.Penalties, _ = model.ParsePenaltyTiers(DefaultPenalties) }},
	{profile.Bypass, func(c Config) bool { return len(c.BypassHeaders) > 0 },
		"FEATURES=bypass needs BYPASS_HEADERS, the headers of a bypass identity (e.g. BYPASS_HEADERS='X-Role: admin')",
		func(c *Config) { c.BypassHeaders, _ = ParseHeaders(DefaultBypassHeaders) }},
	{profile.Tiers, func(c Config) bool { return len(c.Tiers) > 0 },
		"FEATURES=tiers needs RL_TIERS, a JSON file of the target's tiers (e.g. [{\"path\":\"/v1/search\",\"limit\":30,\"window\":60}])",
		func(c *Config) { c.Tiers = DefaultTiers() }},
}

// withDefault is c with feature f's setting filled with the embedded
// reference's default when f is claimed and the setting left unset.
func (c Config) withDefault(f profile.Feature) Config {
	for _, s := range featureSettings {
		if s.feature == f && c.Claims(f) && !s.given(c) {
			s.fill(&c)
		}
	}
	return c
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
