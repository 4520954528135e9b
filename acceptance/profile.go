package acceptance

import (
	"fmt"

	"github.com/rlspec/rlspec/target"
)

// implemented lists the profiles whose features exist; the others are
// accepted settings that cannot run yet.
var implemented = map[target.Profile]bool{target.ProfilePRD: true, target.ProfileSlidingLog: true, target.ProfileFixedWindow: true}

// CheckProfile reports, as one sentence, a profile the suite cannot run yet.
func CheckProfile(p target.Profile) error {
	if p == target.ProfileAll || implemented[p] {
		return nil
	}
	return fmt.Errorf("PROFILE=%s is not implemented yet", p)
}
