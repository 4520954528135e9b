package swcounter

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// WeightsWrong is the fault SWCWeightsWrong (its Name says what it breaks).
func WeightsWrong() fault.Fault {
	return fault.Fault{
		Name:        SWCWeightsWrong,
		Breaks:      clause.Of(clause.SWC2, clause.SWC3),
		Description: "the previous window weighs (t − s)/W instead of 1 − (t − s)/W: least just after it ended",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-3-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap: fault.ModelFault(func(cfg fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			return m.Step(st, req, mirrored(now, cfg.Window))
		}),
	}
}

// mirrored is now reflected inside its window of the epoch's grid: s + δ
// becomes s + W − δ (less a millisecond, to stay inside), which turns the
// weight 1 − δ/W into δ/W.
func mirrored(now time.Time, w time.Duration) time.Time {
	t, wm := now.UnixMilli(), w.Milliseconds()
	start := t - ((t%wm)+wm)%wm
	return time.UnixMilli(start + wm - (t - start) - 1)
}
