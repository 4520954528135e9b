package slidinglog

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// KeyIgnored is the fault SLKeyIgnored (its Name says what it breaks).
func KeyIgnored() fault.Fault {
	return fault.Fault{
		Name:        SLKeyIgnored,
		Breaks:      clause.Of(clause.SL8),
		Description: "the key header is ignored: every request is keyed by its client address",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-8-01"}},
		Profile:     profile.SlidingLog,
		Wrap:        fault.KeyIgnored,
	}
}

// AnonymousShared is the fault SLAnonymousShared (its Name says what it breaks).
func AnonymousShared() fault.Fault {
	return fault.Fault{
		Name:        SLAnonymousShared,
		Breaks:      clause.Of(clause.SL8),
		Description: "a request without the key header is keyed by one bucket shared by every client",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-8-02"}},
		Profile:     profile.SlidingLog,
		Wrap:        fault.AddressesShare("anonymous"),
	}
}
