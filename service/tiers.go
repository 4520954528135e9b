package service

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// tiers' setting (profiles.md SL-9): RL_TIERS names a JSON file of the
// target's tiers, [{"path", "method", "limit", "window", "key"}]
// (model.ParseTiers); the profile's own endpoint (TARGET_PATH, RL_LIMIT,
// RL_WINDOW) is one more. The embedded reference serves DefaultTiers.
const envTiers = "RL_TIERS"

// DefaultTiers are the embedded reference's tiers beside its endpoint; the
// first is keyed by client address, as spec/002's authentication limits
// are.
func DefaultTiers() []model.Tier {
	return []model.Tier{
		{Path: "/v1/tier-a", Method: "GET", Limit: 3, Window: 3 * time.Second, Key: string(KeyIP)},
		{Path: "/v1/tier-b", Method: "GET", Limit: 4, Window: 4 * time.Second},
	}
}

// registerTierFlags binds -rl-tiers.
func (c *Config) registerTierFlags(fs *flag.FlagSet, getenv envflag.Getenv) {
	fs.Var(envflag.Value(getenv, envTiers, (*tiersFlag)(&c.Tiers)), "rl-tiers",
		"tiers: JSON file of the target's tiers [{\"path\",\"method\",\"limit\",\"window\",\"key\"}] ("+envTiers+")")
}

// tiersFlag is RL_TIERS: reading the file is its validation.
type tiersFlag []model.Tier

func (f *tiersFlag) String() string {
	if f == nil || len(*f) == 0 {
		return ""
	}
	return fmt.Sprintf("%d tiers", len(*f))
}
func (f *tiersFlag) Set(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("cannot read the tiers file: %w", err)
	}
	tiers, err := model.ParseTiers(data)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for i, t := range tiers {
		if t.Key == "" {
			continue
		}
		if _, err := ParseKey(t.Key); err != nil {
			return fmt.Errorf("%s: tier %d (%s): key: %w", path, i+1, t.Path, err)
		}
	}
	*f = tiers
	return nil
}

// WithTierDefaults fills RL_TIERS left unset with DefaultTiers when tiers
// are claimed.
func (c Config) WithTierDefaults() Config { return c.withDefault(profile.Tiers) }

// ClaimedTiers is RL_TIERS when tiers are claimed, else nil.
func (c Config) ClaimedTiers() []model.Tier {
	if !c.Claims(profile.Tiers) {
		return nil
	}
	return c.Tiers
}
