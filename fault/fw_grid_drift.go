package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// FWGridDrift is one grid for all keys (WINDOW_ALIGN=grid) whose phase
// drifts: each window lasts W + 1 s (a timer re-armed after the work it
// triggers), so the k-th window ends k seconds after the grid learnt from
// the first Reset says — fresh allowances come late (FW-3) and Reset
// moves off the grid (FW-5).
const FWGridDrift Name = "fw-grid-drift"

func fwGridDrift() Fault {
	return Fault{
		Name:        FWGridDrift,
		Breaks:      clause.Of(clause.FW3, clause.FW5),
		Description: "a grid whose windows last W + 1 s: its phase drifts a second per window",
		Detectors:   Detectors{Scenarios: []string{"FW-5-02"}},
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
