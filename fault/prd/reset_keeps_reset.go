package prd

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
)

// ResetKeepsReset is the fault ResetKeepsResetName (its Name says what it breaks).
func ResetKeepsReset() fault.Fault {
	return fault.Fault{
		Name:        ResetKeepsResetName,
		Breaks:      clause.Of(clause.AC4, clause.FR5),
		Description: "the reset refills the quota but does not move reset_utc, so Reset stays in the past",
		Detectors:   fault.Detectors{Scenarios: []string{"AC4-01"}},
		Wrap: fault.EditStep(func(s *fault.Step) {
			if s.St.Found && s.St.Reset <= s.Now.Unix() && s.Req.Cost > 0 && s.D.Allowed {
				s.Next.Reset, s.D.Reset = s.St.Reset, s.St.Reset
			}
		}),
	}
}
