package service

import "testing"

// What a user's target must give for what it claims, the embedded
// reference's defaults give: TargetNeeds fails before WithEmbeddedDefaults
// and holds after it, on each profile.
func TestEmbeddedDefaultsMeetTargetNeeds(t *testing.T) {
	for _, p := range []Profile{ProfileTokenBucket, ProfileSlidingLog} {
		c := DefaultConfig()
		c.Profile = p
		c.Features = []Feature{FeaturePenalties, FeatureBypass}
		if p == ProfileSlidingLog {
			c.Features = append(c.Features, FeatureTiers)
		}
		if err := c.TargetNeeds(); err == nil {
			t.Errorf("%s: TargetNeeds holds without the settings", p)
		}
		if err := c.WithEmbeddedDefaults().TargetNeeds(); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
