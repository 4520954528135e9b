package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
)

// SWCKeyIgnored keys every request of the sliding-window counter by its
// client address, ignoring X-User-ID: users behind one address share a
// counter.
const SWCKeyIgnored Name = "swc-key-ignored"

// SWCAnonymousShared keys every request without X-User-ID by one counter
// shared by all keyless clients.
const SWCAnonymousShared Name = "swc-anonymous-shared"

func swcKeyIgnored() Fault {
	return Fault{
		Name:        SWCKeyIgnored,
		Breaks:      clause.Of(clause.SWC7),
		Description: "the key header is ignored: every request is keyed by its client address",
		Detectors:   Detectors{Scenarios: []string{"SWC-7-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        keyIgnored,
	}
}

func swcAnonymousShared() Fault {
	return Fault{
		Name:        SWCAnonymousShared,
		Breaks:      clause.Of(clause.SWC7),
		Description: "a request without the key header is keyed by one counter shared by every keyless client",
		Detectors:   Detectors{Scenarios: []string{"SWC-7-02"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        addressesShare("anonymous"),
	}
}
