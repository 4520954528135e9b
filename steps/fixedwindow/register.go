package fixedwindow

import (
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// state is one scenario's fixed-window steps: the key world it shares with the
// other keyed step sets and what only its own steps read.
type state struct {
	*keyed.World
	grid   gridState // FW-2-02, FW-3-04: the key's first request and the multiple of W after it
	onGrid oneGrid   // FW-5-02: one grid's boundary, learnt from the first Reset
}

// Register registers the fixed-window steps on the scenario's key world w.
func Register(w *keyed.World, sc scenario.Stepper) {
	s := &state{World: w}
	s.registerFixedWindow(sc)
	s.registerFixedWindowGrid(sc)
	s.registerFixedWindowRetry(sc)
	s.registerOnGrid(sc)
}
