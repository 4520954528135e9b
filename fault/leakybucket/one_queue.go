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
		Detectors:   fault.Detectors{Scenarios: []string{"LB-3-01", "LB-4-01"}},
		Description: "one queue for all keys: a key waits behind every other key's requests",
		Profile:     profile.LeakyBucket,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Keyer: func(fakeserver.Keyer) fakeserver.Keyer { return oneKey{} }}
		},
	}
}

// oneKey keys every request alike.
type oneKey struct{}

func (oneKey) Key(*http.Request, fakeserver.Ride) string { return fakeserver.UserPrefix + "everyone" }
