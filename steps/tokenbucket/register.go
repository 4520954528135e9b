package tokenbucket

import (
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// state is one scenario's token-bucket steps: the key world it shares with the
// other keyed step sets and what only its own steps read.
type state struct {
	*keyed.World
}

// Register registers the token-bucket steps on the scenario's key world w.
func Register(w *keyed.World, sc scenario.Stepper) {
	s := &state{World: w}
	s.registerTokenBucket(sc)
	s.registerTokenBucketKeys(sc)
}

// ExactlyBurst is TB-5 on w's last batch (exactlyBurst), for the steps of
// other packages that send a key's batch their own way (multi-instance).
func ExactlyBurst(w *keyed.World) error { return (&state{World: w}).exactlyBurst() }
