package ops

import (
	"context"

	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/prd"
	"github.com/rlspec/rlspec/steps/scenario"
)

// testWorld is one scenario's state on a State driven without godog.
func testWorld(ctx context.Context, env *scenario.Env) *state {
	return newState(scenario.New(ctx, env))
}

func newState(st *scenario.State) *state {
	return &state{State: st, key: keyed.New(st), prd: prd.New(st)}
}

// run runs the keyed or PRD step of text on s's worlds.
func (s *state) run(text string) error {
	p := &scenario.Replayer{}
	keyed.Register(s.key, p)
	prd.Register(s.prd, p)
	return p.Run(text)
}
