package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// SWCWeightsWrong weights the previous window the wrong way round:
// p·(t − s)/W + c in place of p·(1 − (t − s)/W) + c, so the previous
// window weighs least just after it ended, when it should weigh most — a
// request early in a window finds e ≥ N + 1 and is allowed (SWC-2); late
// in a window requests that fit are refused (SWC-3).
const SWCWeightsWrong Name = "swc-weights-wrong"

func swcWeightsWrong() Fault {
	return Fault{
		Name:        SWCWeightsWrong,
		Breaks:      clause.Of(clause.SWC2, clause.SWC3),
		Detectors:   Detectors{Scenarios: []string{"SWC-3-01"}},
		Description: "the previous window weighs (t − s)/W instead of 1 − (t − s)/W: least just after it ended",
		Profile:     profile.SlidingWindowCounter,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return wrapModel(func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				return m.Step(st, req, mirrored(now, cfg.Window))
			})
		},
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
