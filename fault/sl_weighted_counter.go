package fault

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// SLWeightedCounter serves a sliding-window counter (profiles.md's
// sliding-window-counter on the epoch's grid: e = p·(1 − (t − s)/W) + c)
// as sliding-log: a burst just before a grid window ends is followed, just
// after, by more allowed requests than any window of W may hold.
const SLWeightedCounter Name = "sl-weighted-counter"

func slWeightedCounter() Fault {
	return Fault{
		Name:        SLWeightedCounter,
		Breaks:      clause.Of(clause.SL1),
		Description: "a weighted two-window counter on the epoch's grid served as sliding-log: a burst before a window ends and more just after exceed N in a span of W",
		Detectors:   Detectors{Scenarios: []string{"SL-1-02"}},
		Profile:     profile.SlidingLog,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: counted}
		},
	}
}

// counted replaces a sliding log, also one inside penalties, by a counter
// of the same N and W; any other design (the flag off) stays.
func counted(m model.Model) model.Model {
	switch d := m.(type) {
	case model.SlidingLog:
		return model.WindowCounter{Limit: d.Limit, Window: d.Window}
	case model.Penalties:
		d.Inner = counted(d.Inner)
		return d
	}
	return m
}
