package fault

import (
	"net/http"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/profile"
)

// LBOneQueue serves every key from one queue: a request of one key waits
// behind the queued requests of every other key (LB-4), and the i-th of a
// key's burst is answered later than i/R when others are queued (LB-3).
const LBOneQueue Name = "lb-one-queue"

func lbOneQueue() Fault {
	return Fault{
		Name:        LBOneQueue,
		Breaks:      clause.Of(clause.LB4, clause.LB3),
		Detectors:   Detectors{Scenarios: []string{"LB-3-01", "LB-4-01"}},
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
