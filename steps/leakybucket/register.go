package leakybucket

import (
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// state is one scenario's leaky-bucket steps: the key world it shares with
// the other keyed step sets and the other key's batch its LB-3 and LB-4
// steps send beside the key's own, and
// the control sent beside a batch whose answers must come at once.
type state struct {
	*keyed.World
	other   []*httpclient.Exchange
	control *httpclient.Exchange // control.go
}

// Register registers the leaky-bucket steps on the scenario's key world w.
func Register(w *keyed.World, sc scenario.Stepper) {
	s := &state{World: w}
	s.registerQueue(sc)
	s.registerKeys(sc)
	s.registerRefusal(sc)
}
