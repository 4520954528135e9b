package acceptance

import (
	"fmt"

	"github.com/rlspec/rlspec/service"
)

// implemented lists the profiles whose features exist; the others are
// accepted settings that cannot run yet.
var implemented = map[profile.Name]bool{profile.PRD: true, profile.SlidingLog: true, profile.FixedWindow: true,
	profile.TokenBucket: true}

// CheckProfile reports, as one sentence, a profile the suite cannot run yet.
func CheckProfile(p profile.Name) error {
	if p == profile.Every || implemented[p] {
		return nil
	}
	return fmt.Errorf("PROFILE=%s is not implemented yet", p)
}

// minPRDLimit is the smallest RL_LIMIT the PRD suite can be set up with:
// its scenarios spend up to three units of one bucket before they check
// (with fewer, a correct service would fail them).
const minPRDLimit = 3

// checkLimit reports, as one sentence, a limit the profile's suite cannot
// be set up with.
func checkLimit(tc service.Config) error {
	if tc.Profile == profile.PRD && tc.Limit < minPRDLimit {
		return fmt.Errorf("RL_LIMIT=%d is too small for the PRD suite: its scenarios spend up to %d units of one bucket before they check (the PRD's limit is 500; any of %d or more works)",
			tc.Limit, minPRDLimit, minPRDLimit)
	}
	return nil
}
