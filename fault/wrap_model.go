package fault

import (
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
)

// StepFunc is a model.Model from a function: how model faults wrap the
// correct model.
type StepFunc func(st model.State, req model.Request, now time.Time) (model.State, model.Decision)

var _ model.Model = StepFunc(nil)

// Step calls f.
func (f StepFunc) Step(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
	return f(st, req, now)
}

// modelStep is a model fault as a function of the correct model and one
// step's arguments.
type modelStep func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision)

// WrapModel is the Wrap of a model fault.
func WrapModel(f modelStep) fakeserver.Wrap {
	return fakeserver.Wrap{Model: func(m model.Model) model.Model {
		return StepFunc(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			return f(m, st, req, now)
		})
	}}
}

// ModelFault is the Wrap of a model fault that reads the server's
// configuration: f is called with it on every step.
func ModelFault(f func(cfg fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision)) func(fakeserver.Config) fakeserver.Wrap {
	return func(cfg fakeserver.Config) fakeserver.Wrap {
		return WrapModel(func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			return f(cfg, m, st, req, now)
		})
	}
}

// RetryAfterIs sets a refusal's RetryAfter to f(W) and its Reset to now
// plus that, so headers and body agree.
func RetryAfterIs(f func(w int64) int64) func(fakeserver.Config) fakeserver.Wrap {
	return func(cfg fakeserver.Config) fakeserver.Wrap {
		ra := f(int64(cfg.Window / time.Second))
		return WrapModel(func(m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := m.Step(st, req, now)
			if !d.Allowed {
				d.RetryAfter, d.Reset = ra, now.Unix()+ra
			}
			return next, d
		})
	}
}
