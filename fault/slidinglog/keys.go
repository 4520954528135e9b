package slidinglog

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// KeyIgnored is the fault SLKeyIgnored (its Name says what it breaks).
func KeyIgnored() fault.Fault {
	return fault.KeyIgnoredOf(SLKeyIgnored, profile.SlidingLog, clause.SL8, "SL-8-01")
}

// AnonymousShared is the fault SLAnonymousShared (its Name says what it breaks).
func AnonymousShared() fault.Fault {
	return fault.AnonymousSharedOf(SLAnonymousShared, profile.SlidingLog, clause.SL8, "bucket shared by every client", "SL-8-02")
}
