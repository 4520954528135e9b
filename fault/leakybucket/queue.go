package leakybucket

import (
	"net/http"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// Unbounded is the fault LBUnbounded (its Name says what it breaks).
func Unbounded() fault.Fault {
	return fault.Fault{
		Name:        LBUnbounded,
		Breaks:      clause.Of(clause.LB2),
		Description: "a queue without bound: nothing is ever refused (served under nodelay, the excess answered at once; in delay mode it waits, as a bounded queue decided late would)",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-2-01"}},
		Profile:     profile.LeakyBucket,
		// Under delay mode its extras leave one each 1/R, as late as a
		// bounded queue's would had it decided them late: no timing
		// tells the two apart. Under nodelay they come back at once.
		NoDelay: true,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, _ model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := model.LeakyBucket{Burst: 1 << 20, Rate: cfg.Rate, Delay: cfg.QueueDelay, NoDelay: cfg.NoDelay}.Step(st, req, now)
			d.Limit, d.Remaining = cfg.Burst+1, min(d.Remaining, cfg.Burst)
			return next, d
		}),
	}
}

// RefusesWaiters is the fault LBRefusesWaiters (its Name says what it breaks).
func RefusesWaiters() fault.Fault {
	return fault.Fault{
		Name:        LBRefusesWaiters,
		Breaks:      clause.Of(clause.LB2),
		Description: "requests that should wait their turn are refused: a queue of no places behind the one in service",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-2-01"}},
		Profile:     profile.LeakyBucket,
		Wrap: fault.Replace(func(cfg fakeserver.Config) model.Model {
			return fault.Claiming(model.LeakyBucket{Rate: cfg.Rate}, cfg.Burst+1)
		}),
	}
}

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
