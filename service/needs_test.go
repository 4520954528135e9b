package service

import "testing"

// What a user's target must give for what it claims, the embedded
// reference's defaults give: TargetNeeds fails before WithEmbeddedDefaults
// and holds after it, on each profile.
func TestEmbeddedDefaultsMeetTargetNeeds(t *testing.T) {
	for _, p := range []Profile{profile.TokenBucket, profile.SlidingLog} {
		c := DefaultConfig()
		c.Profile = p
		c.Features = []Feature{profile.Penalties, profile.Bypass}
		if p == profile.SlidingLog {
			c.Features = append(c.Features, profile.Tiers)
		}
		if err := c.TargetNeeds(); err == nil {
			t.Errorf("%s: TargetNeeds holds without the settings", p)
		}
		if err := c.WithEmbeddedDefaults().TargetNeeds(); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
