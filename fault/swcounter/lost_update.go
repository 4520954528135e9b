package swcounter

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// LostUpdate is the fault SWCLostUpdate (its Name says what it breaks).
func LostUpdate() fault.Fault {
	return fault.Fault{
		Name:        SWCLostUpdate,
		Breaks:      clause.Of(clause.SWC4, clause.SWC1),
		Description: "a non-atomic update of the window counter: requests of a key within 200 ms read the same count and each add one",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-4-01", "SWC-1-01"}, Race: true, Replicas: 1},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        fault.LostUpdate,
	}
}
