package slidinglog

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// RefusedRecorded is the fault SLRefusedRecorded (its Name says what it breaks).
func RefusedRecorded() fault.Fault {
	return fault.Fault{
		Name:        SLRefusedRecorded,
		Breaks:      clause.Of(clause.SL5),
		Description: "refused requests are recorded in the log: each 429 extends the block",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-5-01"}},
		Profile:     profile.SlidingLog,
		Wrap: fault.EditStep(func(s *fault.Step) {
			if s.D.Allowed || s.Req.Cost == 0 {
				return
			}
			s.Next.Found = true
			s.Next.Log = model.EncodeLog(append(model.DecodeLog(s.St.Log), s.Now.UnixMilli()))
			s.Next.Reset = max(s.Next.Reset, s.Now.Unix()+s.D.RetryAfter)
			s.D.Write = true
		}),
	}
}
