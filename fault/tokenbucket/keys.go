package tokenbucket

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// AnonymousShared is the fault TBAnonymousShared (its Name says what it breaks).
func AnonymousShared() fault.Fault {
	return fault.Fault{
		Name:        TBAnonymousShared,
		Breaks:      clause.Of(clause.TB8),
		Description: "a request without the key header is keyed by one bucket shared by every keyless client",
		Detectors:   fault.Detectors{Scenarios: []string{"TB-8-02"}},
		Profile:     profile.TokenBucket,
		Wrap:        fault.AddressesShare("anonymous"),
	}
}

// KeyIgnored is the fault TBKeyIgnored (its Name says what it breaks).
func KeyIgnored() fault.Fault {
	return fault.Fault{
		Name:        TBKeyIgnored,
		Breaks:      clause.Of(clause.TB8),
		Description: "the key header is ignored: every request is keyed by its client address",
		Detectors:   fault.Detectors{Scenarios: []string{"TB-8-01"}},
		Profile:     profile.TokenBucket,
		Wrap:        fault.KeyIgnored,
	}
}
