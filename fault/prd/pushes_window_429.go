package prd

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
)

// PushesWindow429 is the fault PushesWindow429Name (its Name says what it breaks).
func PushesWindow429() fault.Fault {
	return fault.Fault{
		Name:        PushesWindow429Name,
		Breaks:      clause.Of(clause.AC3, clause.FR3),
		Description: "a 429 moves reset_utc to now + window, so rejected clients never get back in",
		Detectors:   fault.Detectors{Scenarios: []string{"AC3-03"}},
		Wrap: fault.EditStep(func(s *fault.Step) {
			if s.D.Allowed || s.Req.Cost == 0 {
				return
			}
			s.Next.Reset = s.Now.Unix() + s.WindowSeconds()
			s.D.Reset, s.D.RetryAfter, s.D.Write = s.Next.Reset, s.WindowSeconds(), s.Next != s.St
		}),
	}
}
