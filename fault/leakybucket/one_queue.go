package leakybucket

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// OneQueue is the fault LBOneQueue (its Name says what it breaks).
func OneQueue() fault.Fault {
	return fault.Fault{
		Name:        LBOneQueue,
		Breaks:      clause.Of(clause.LB4, clause.LB3),
		Description: "one queue for all keys: a key waits behind every other key's requests",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-3-01", "LB-4-01"}},
		Profile:     profile.LeakyBucket,
		Wrap: fault.Rekey(func(fakeserver.Keyer, *http.Request, fakeserver.Ride) string {
			return fakeserver.UserPrefix + "everyone" // every request keyed alike
		}),
	}
}
