package keyed

import (
	"context"

	"github.com/rlspec/rlspec/steps/scenario"
)

// testWorld is one scenario's state on a State driven without godog.
func testWorld(ctx context.Context, env *scenario.Env) *World {
	return New(scenario.New(ctx, env))
}
