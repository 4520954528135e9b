package preflight

import (
	"fmt"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// CheckProfile reports, as one sentence, a profile the suite cannot run:
// one the registry does not hold.
func CheckProfile(p profile.Name) error {
	if _, err := profile.Parse(string(p), true); err != nil {
		return fmt.Errorf("PROFILE: %w", err)
	}
	return nil
}

// minPRDLimit is the smallest RL_LIMIT the PRD suite can be set up with:
// its scenarios spend up to three units of one bucket before they check
// (with fewer, a correct service would fail them).
const minPRDLimit = 3

// CheckLimit reports, as one sentence, a limit the profile's suite cannot
// be set up with.
func CheckLimit(tc service.Config) error {
	if tc.Profile == profile.PRD && tc.Limit < minPRDLimit {
		return fmt.Errorf("RL_LIMIT=%d is too small for the PRD suite: its scenarios spend up to %d units of one bucket before they check (the PRD's limit is 500; any of %d or more works)",
			tc.Limit, minPRDLimit, minPRDLimit)
	}
	return nil
}
