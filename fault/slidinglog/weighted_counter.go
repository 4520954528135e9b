package slidinglog

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// WeightedCounter is the fault SLWeightedCounter (its Name says what it breaks).
func WeightedCounter() fault.Fault {
	return fault.Fault{
		Name:        SLWeightedCounter,
		Breaks:      clause.Of(clause.SL1),
		Description: "a weighted two-window counter on the epoch's grid served as sliding-log: a burst before a window ends and more just after exceed N in a span of W",
		Detectors:   fault.Detectors{Scenarios: []string{"SL-1-02"}},
		Profile:     profile.SlidingLog,
		Wrap:        func(fakeserver.Config) fakeserver.Wrap { return fakeserver.Wrap{Model: counted} },
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
