package fakeserver

import (
	"fmt"
	"strconv"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// Model is the configured design: the profile's, or the flag off, inside
// spec/003's progressive penalties when RL_PENALTIES gives tiers (the flag
// off has none).
func (c Config) Model() model.Model {
	m := c.design()
	if !c.Enabled || len(c.Penalties) == 0 {
		return m
	}
	return model.Penalties{Inner: m, Tiers: c.Penalties}
}

// SetPenalties reads RL_PENALTIES (count:duration,…).
func (c *Config) SetPenalties(s string) error {
	tiers, err := model.ParsePenaltyTiers(s)
	if err != nil {
		return fmt.Errorf("RL_PENALTIES: %w", err)
	}
	c.Penalties = tiers
	return nil
}

// penaltyFields is what a 429 body adds under a penalty (spec/003's
// RateLimitResult): `,"penalty_active":true,"penalty_until":<unix s>`, or
// nothing.
func penaltyFields(d reference.Decision) string {
	if d.PenaltyUntil == 0 {
		return ""
	}
	return `,"penalty_active":true,"penalty_until":` + strconv.FormatInt(d.PenaltyUntil, 10)
}
