package fault

import (
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
)

// stepFunc is a model.Model from a function: how model faults wrap the
// correct model.
type stepFunc func(st model.State, req model.Request, now time.Time) (model.State, model.Decision)

var _ model.Model = stepFunc(nil)

// Step calls f.
func (f stepFunc) Step(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
	return f(st, req, now)
}

// modelStep is a model fault as a function of the correct model and one
// step's arguments.
type modelStep func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision)

// wrapModel is the Wrap of a model fault.
func wrapModel(f modelStep) fakeserver.Wrap {
	return fakeserver.Wrap{Model: func(m model.Model) model.Model {
		return stepFunc(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			return f(m, st, req, now)
		})
	}}
}
