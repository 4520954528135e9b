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

// GridFirstRequest is the fault FWGridFirstRequest (its Name says what it breaks).
func GridFirstRequest() fault.Fault {
	return fault.Fault{
		Name:        FWGridFirstRequest,
		Breaks:      clause.Of(clause.FW3, clause.FW1),
		Description: "key-grid windows claimed, but each window is opened by the first request after an idle gap",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-3-04"}},
		Profile:     profile.FixedWindow,
		Align:       profile.AlignKeyGrid,
		Wrap:        fault.Replace(func(cfg fakeserver.Config) model.Model { return model.PRD{Limit: cfg.Limit, Window: cfg.Window} }),
	}
}

// KeyGrid is the fault FWKeyGrid (its Name says what it breaks).
func KeyGrid() fault.Fault {
	return fault.Fault{
		Name:        FWKeyGrid,
		Breaks:      clause.Of(clause.FW2, clause.FW1),
		Description: "first-request windows claimed, but windows sit on a grid of W anchored at the key's first-ever request",
		Detectors:   fault.Detectors{Scenarios: []string{"FW-2-02"}},
		Profile:     profile.FixedWindow,
		Align:       profile.AlignFirstRequest,
		Wrap:        fault.Replace(func(cfg fakeserver.Config) model.Model { return model.KeyGrid{Limit: cfg.Limit, Window: cfg.Window} }),
	}
}
