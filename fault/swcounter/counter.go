package swcounter

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// FixedWindow is the fault SWCFixedWindow (its Name says what it breaks).
func FixedWindow() fault.Fault {
	return fault.Fault{
		Name:        SWCFixedWindow,
		Breaks:      clause.Of(clause.SWC2),
		Description: "the previous window's count is forgotten: a fixed window on the same grid served as a sliding-window counter",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-2-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap:        fault.Replace(func(cfg fakeserver.Config) model.Model { return model.Epoch{Limit: cfg.Limit, Window: cfg.Window} }),
	}
}

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

// CountsRefused is the fault SWCCountsRefused (its Name says what it breaks).
func CountsRefused() fault.Fault {
	return fault.Fault{
		Name:        SWCCountsRefused,
		Breaks:      clause.Of(clause.SWC3),
		Description: "refused requests are counted although counts-refused is not claimed: retries weigh on the next window",
		Detectors:   fault.Detectors{Scenarios: []string{"SWC-3-01"}},
		Profile:     profile.SlidingWindowCounter,
		Wrap: fault.Replace(func(cfg fakeserver.Config) model.Model {
			return model.WindowCounter{Limit: cfg.Limit, Window: cfg.Window, CountsRefused: true}
		}),
	}
}

// LostUpdate is the fault SWCLostUpdate (its Name says what it breaks).
func LostUpdate() fault.Fault {
	return fault.LostUpdateOf(SWCLostUpdate, profile.SlidingWindowCounter, clause.Of(clause.SWC4, clause.SWC1),
		"a non-atomic update of the window counter: requests of a key within 200 ms read the same count and each add one",
		"SWC-4-01", "SWC-1-01")
}
