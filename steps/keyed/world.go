package keyed

import (
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
)

// World is what the steps of one scenario on a key share: the key under
// test, the last request sent with it and the last run. Each design's
// step set holds the scenario's World and adds its own state.
type World struct {
	*scenario.State
	Key   Key
	Last  scenario.Last
	Batch scenario.Batch

	rounds [][]*httpclient.Exchange // each fresh key's batch of a race on several keys

	// GridStart, where the design keeps its windows on a grid (the
	// sliding-window counter), is the start of the grid window holding
	// t: a run and the request after it count as in one window only when
	// they share a grid window. nil: no grid.
	GridStart func(t time.Time) time.Time
}

// New is a scenario's fresh key world on st: a wait of the scenario ages
// the key's stored window (Env.Ager) once there is a key.
func New(st *scenario.State) *World {
	w := &World{State: st}
	st.AgeWith(func() string { return w.Key.Value })
	return w
}

// Register registers the steps every keyed design shares: making keys,
// sending with them, passing time, and the penalty-free instance.
func Register(w *World, sc scenario.Stepper) {
	w.registerKeys(sc)
	w.registerNoPenalty(sc)
	w.registerRounds(sc)
}
