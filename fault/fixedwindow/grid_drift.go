package fixedwindow

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// GridDrift is the fault FWGridDrift (its Name says what it breaks).
func GridDrift() fault.Fault {
	return fault.Fault{
		Name:        FWGridDrift,
		Breaks:      clause.Of(clause.FW3, clause.FW5),
		Description: "a grid whose windows last W + 1 s: its phase drifts a second per window",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-5-02"}},
		Profile:     profile.FixedWindow,
		Align:       profile.AlignGrid,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(m model.Model) model.Model {
				if g, ok := m.(model.Grid); ok {
					g.Window += time.Second // anchored where the correct grid is, drifting from there
					return g
				}
				return m
			}}
		},
	}
}
