package slidinglog

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
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
		Wrap: fault.ModelFault(func(_ fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := m.Step(st, req, now)
			if d.Allowed || req.Cost == 0 {
				return next, d
			}
			next.Found = true
			next.Log = model.EncodeLog(append(model.DecodeLog(st.Log), now.UnixMilli()))
			next.Reset = max(next.Reset, now.Unix()+d.RetryAfter)
			d.Write = true
			return next, d
		}),
	}
}
