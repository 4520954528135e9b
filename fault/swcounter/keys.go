package swcounter

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// KeyIgnored is the fault SWCKeyIgnored (its Name says what it breaks).
func KeyIgnored() fault.Fault {
	return fault.KeyIgnoredOf(SWCKeyIgnored, profile.SlidingWindowCounter, clause.SWC7, "SWC-7-01")
}

// AnonymousShared is the fault SWCAnonymousShared (its Name says what it breaks).
func AnonymousShared() fault.Fault {
	return fault.AnonymousSharedOf(SWCAnonymousShared, profile.SlidingWindowCounter, clause.SWC7, "counter shared by every keyless client", "SWC-7-02")
}
