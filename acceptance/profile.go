package acceptance

import (
	"fmt"

	"github.com/rlspec/rlspec/service"
)

// implemented lists the profiles whose features exist; the others are
// accepted settings that cannot run yet.
var implemented = map[service.Profile]bool{service.ProfilePRD: true, service.ProfileSlidingLog: true, service.ProfileFixedWindow: true,
	service.ProfileTokenBucket: true}

// CheckProfile reports, as one sentence, a profile the suite cannot run yet.
func CheckProfile(p service.Profile) error {
	if p == service.ProfileAll || implemented[p] {
		return nil
	}
	return fmt.Errorf("PROFILE=%s is not implemented yet", p)
}
