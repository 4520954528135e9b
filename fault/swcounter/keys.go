package swcounter

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// KeyIgnored is the fault SWCKeyIgnored (its Name says what it breaks).
func KeyIgnored() fault.Fault {
	return fault.Fault{
		Name:        SWCKeyIgnored,
		Breaks:      clause.Of(clause.SWC7),
		Description: "the key header is ignored: every request is keyed by its client address",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-7-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        fault.KeyIgnored,
	}
}

// AnonymousShared is the fault SWCAnonymousShared (its Name says what it breaks).
func AnonymousShared() fault.Fault {
	return fault.Fault{
		Name:        SWCAnonymousShared,
		Breaks:      clause.Of(clause.SWC7),
		Description: "a request without the key header is keyed by one counter shared by every keyless client",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-7-02"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        fault.AddressesShare("anonymous"),
	}
}
