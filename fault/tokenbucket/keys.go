package tokenbucket

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// AnonymousShared is the fault TBAnonymousShared (its Name says what it breaks).
func AnonymousShared() fault.Fault {
	return fault.AnonymousSharedOf(TBAnonymousShared, profile.TokenBucket, clause.TB8, "bucket shared by every keyless client", "TB-8-02")
}

// KeyIgnored is the fault TBKeyIgnored (its Name says what it breaks).
func KeyIgnored() fault.Fault {
	return fault.KeyIgnoredOf(TBKeyIgnored, profile.TokenBucket, clause.TB8, "TB-8-01")
}
