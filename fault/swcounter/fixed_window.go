package swcounter

import (
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
