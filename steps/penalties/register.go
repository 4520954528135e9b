package penalties

import (
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// state is one scenario's penalty steps: the key world it shares with the
// other keyed step sets and what only its own steps read.
type state struct {
	*keyed.World
	pen penaltyState // what the key's violations started
}

// Register registers the penalty steps on the scenario's key world w.
func Register(w *keyed.World, sc scenario.Stepper) {
	s := &state{World: w}
	s.registerPenalties(sc)
	s.registerPNRefusals(sc)
}
