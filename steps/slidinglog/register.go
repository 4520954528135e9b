package slidinglog

import (
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// state is one scenario's sliding-log steps: the key world it shares with the
// other keyed step sets and what only its own steps read.
type state struct {
	*keyed.World
}

// Register registers the sliding-log steps on the scenario's key world w.
func Register(w *keyed.World, sc scenario.Stepper) {
	s := &state{World: w}
	s.registerSlidingLog(sc)
	s.registerSLPhases(sc)
}
