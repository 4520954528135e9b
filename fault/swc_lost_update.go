package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
)

// SWCLostUpdate is a non-atomic update of the window counter: the counts
// read, the estimate computed, the incremented count written back, with no
// lock or serialisable transaction between — requests of a key that read
// the same count each add one to it, and more than N are allowed on a
// fresh key (SWC-4) and in one window (SWC-1). Deterministic as
// TBLostUpdate: a key's state read once is what its requests read while
// they come less than 200 ms apart.
const SWCLostUpdate Name = "swc-lost-update"

func swcLostUpdate() Fault {
	return Fault{
		Name:        SWCLostUpdate,
		Breaks:      clause.Of(clause.SWC4, clause.SWC1),
		Description: "a non-atomic update of the window counter: requests of a key within 200 ms read the same count and each add one",
		Detectors:   Detectors{Scenarios: []string{"SWC-4-01", "SWC-1-01"}, Race: true, Replicas: 1},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        lostUpdate,
	}
}
