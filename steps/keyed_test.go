package steps

import (
	"context"

	"github.com/rlspec/rlspec/steps/fixedwindow"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/slidinglog"
	"github.com/rlspec/rlspec/steps/tokenbucket"
)

// keyedSteps is one scenario's key world on a State driven without godog,
// with every keyed design's steps registered on a Replayer, which runs
// them by their text.
func keyedSteps(ctx context.Context, env *scenario.Env) (*keyed.World, *scenario.Replayer) {
	w, p := keyed.New(scenario.New(ctx, env)), &scenario.Replayer{}
	keyed.Register(w, p)
	slidinglog.Register(w, p)
	fixedwindow.Register(w, p)
	tokenbucket.Register(w, p)
	return w, p
}

// on is the step of text on p, to be run later.
func on(p *scenario.Replayer, text string) func() error {
	return func() error { return p.Run(text) }
}
