package fault

import (
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// FWKeyGrid claims windows opened by the first request
// (WINDOW_ALIGN=first-request, spec/004) but keeps a grid of W anchored at
// the key's first-ever request: after an idle gap that is not a multiple
// of W, the next window still starts on that grid (dialects.md's
// key-grid), so 2N can be allowed within much less than W.
const FWKeyGrid Name = "fw-key-grid"

func fwKeyGrid() Fault {
	return Fault{
		Name:        FWKeyGrid,
		Breaks:      clause.Of(clause.FW2, clause.FW1),
		Description: "first-request windows claimed, but windows sit on a grid of W anchored at the key's first-ever request",
		Detectors:   Detectors{Scenarios: []string{"FW-2-02"}},
		Profile:     profile.FixedWindow,
		Align:       profile.AlignFirstRequest,
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Model: func(model.Model) model.Model { return keyGrid{limit: cfg.Limit, window: cfg.Window} }}
		},
	}
}

// keyGrid is the fixed window of a per-key grid: the key's first request
// opens [t, t+W) (the PRD's rule); a request at or after the stored end
// finds a full window that ends on the grid, whole windows later.
type keyGrid struct {
	limit  int
	window time.Duration
}

func (m keyGrid) Step(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
	t, w := now.Unix(), int64(m.window/time.Second)
	if st.Found && st.Reset <= t {
		st = model.State{Found: true, Remaining: m.limit, Reset: st.Reset + ((t-st.Reset)/w+1)*w}
	}
	return model.PRD{Limit: m.limit, Window: m.window}.Step(st, req, now)
}
