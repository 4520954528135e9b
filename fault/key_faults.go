package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
)

// KeyIgnoredOf is the fault n of profile p whose key header is ignored:
// every request is keyed by its client address (KeyIgnored), which breaks
// the profile's keying clause c and must fail scenario.
func KeyIgnoredOf(n Name, p profile.Name, c clause.ID, scenario string) Fault {
	return Fault{
		Name:        n,
		Breaks:      clause.Of(c),
		Description: "the key header is ignored: every request is keyed by its client address",
		Detectors:   Detectors{Scenarios: []string{scenario}},
		Profile:     p,
		Wrap:        KeyIgnored,
	}
}

// AnonymousSharedOf is the fault n of profile p that keys every request
// without the key header by one bucket id (AddressesShare); shared says
// what all those requests share ("bucket shared by every client"). It
// breaks the profile's keying clause c and must fail scenario.
func AnonymousSharedOf(n Name, p profile.Name, c clause.ID, shared, scenario string) Fault {
	return Fault{
		Name:        n,
		Breaks:      clause.Of(c),
		Description: "a request without the key header is keyed by one " + shared,
		Detectors:   Detectors{Scenarios: []string{scenario}},
		Profile:     p,
		Wrap:        AddressesShare("anonymous"),
	}
}
