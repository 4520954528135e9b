package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
)

// TBKeyIgnored keys every request by its client address, ignoring
// X-User-ID: users behind one address share a bucket.
const TBKeyIgnored Name = "tb-key-ignored"

// TBAnonymousShared keys every request without X-User-ID by one bucket
// shared by all keyless clients.
const TBAnonymousShared Name = "tb-anonymous-shared"

func tbAnonymousShared() Fault {
	return Fault{
		Name:        TBAnonymousShared,
		Breaks:      clause.Of(clause.TB8),
		Description: "a request without the key header is keyed by one bucket shared by every keyless client",
		Detectors:   Detectors{Scenarios: []string{"TB-8-02"}},
		Profile:     profile.TokenBucket,
		Wrap:        addressesShare("anonymous"),
	}
}

func tbKeyIgnored() Fault {
	return Fault{
		Name:        TBKeyIgnored,
		Breaks:      clause.Of(clause.TB8),
		Description: "the key header is ignored: every request is keyed by its client address",
		Detectors:   Detectors{Scenarios: []string{"TB-8-01"}},
		Profile:     profile.TokenBucket,
		Wrap:        keyIgnored,
	}
}
