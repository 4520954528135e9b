package leakybucket

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
)

// FixedSleep is the fault LBFixedSleep (its Name says what it breaks).
func FixedSleep() fault.Fault {
	return fault.Fault{
		Name:        LBFixedSleep,
		Breaks:      clause.Of(clause.LB1),
		Description: "a fixed sleep of 1/R for every queued request instead of its turn: a burst leaves as a burst",
		Detectors:   fault.Detectors{Scenarios: []string{"LB-1-01"}},
		Profile:     profile.LeakyBucket,
		Wrap: fault.EditStep(func(s *fault.Step) {
			if s.D.Wait > 0 {
				s.D.Wait = time.Duration(float64(time.Second) / s.Cfg.Rate)
			}
		}),
	}
}
