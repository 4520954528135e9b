package tokenbucket

import (
	"context"

	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// testWorld is one scenario's state on a State driven without godog.
func testWorld(ctx context.Context, env *scenario.Env) *state {
	return &state{World: keyed.New(scenario.New(ctx, env))}
}
