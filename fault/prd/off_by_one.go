package prd

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
)

// OffByOne is the fault OffByOneName (its Name says what it breaks).
func OffByOne() fault.Fault {
	return fault.Fault{
		Name:        OffByOneName,
		Breaks:      clause.Of(clause.AC1, clause.AC2),
		Description: "X-RateLimit-Remaining is one too high (the value before the spend)",
		Detectors:   fault.Detectors{Scenarios: []string{"AC1-01", "AC2-01"}},
		Wrap: fault.EditStep(func(s *fault.Step) {
			if s.D.Allowed && s.D.Write && s.Req.Cost > 0 {
				s.D.Remaining += s.Req.Cost
			}
		}),
	}
}
