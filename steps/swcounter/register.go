package swcounter

import (
	"time"

	"github.com/rlspec/rlspec/profile"

	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// state is one scenario's sliding-window-counter steps: the key world it
// shares with the other keyed step sets.
type state struct {
	*keyed.World
	anchor time.Time // an instant of the key's grid (key-grid, grid); zero: the epoch's
}

// Register registers the sliding-window-counter steps on the scenario's
// key world w.
func Register(w *keyed.World, sc scenario.Stepper) {
	s := &state{World: w}
	if w.Env().Config.Profile == profile.SlidingWindowCounter {
		w.GridStart = s.gridStart // the counter's windows lie on its grid
	}
	s.registerCounter(sc)
	s.registerOverBlock(sc)
	s.registerAnswers(sc)
}
