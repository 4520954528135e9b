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

// Replace is the Wrap of a fault that serves another model, built from
// the server's configuration, in place of the correct one.
func Replace(serve func(cfg fakeserver.Config) model.Model) func(fakeserver.Config) fakeserver.Wrap {
	return func(cfg fakeserver.Config) fakeserver.Wrap {
		m := serve(cfg)
		return fakeserver.Wrap{Model: func(model.Model) model.Model { return m }}
	}
}

// Claiming is m answering with limit, whatever limit m enforces: a model
// whose headers claim the configured limit while it serves another.
func Claiming(m model.Model, limit int) model.Model {
	return StepFunc(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
		next, d := m.Step(st, req, now)
		d.Limit = limit
		return next, d
	})
}

// Step is one step of the correct model as an EditStep fault sees it: the
// server's configuration, the step's arguments, and the correct model's
// answer (Next and D), which the fault may change.
type Step struct {
	Cfg  fakeserver.Config
	St   model.State
	Req  model.Request
	Now  time.Time
	Next model.State
	D    model.Decision
}

// EditStep is the Wrap of a model fault that lets the correct model decide
// and then changes its answer: edit may change s.Next and s.D.
func EditStep(edit func(s *Step)) func(fakeserver.Config) fakeserver.Wrap {
	return ModelFault(func(cfg fakeserver.Config, m model.Model, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
		s := Step{Cfg: cfg, St: st, Req: req, Now: now}
		s.Next, s.D = m.Step(st, req, now)
		edit(&s)
		return s.Next, s.D
	})
}

// WindowSeconds is the server's window in whole seconds.
func (s *Step) WindowSeconds() int64 { return int64(s.Cfg.Window / time.Second) }

// RetryAfterIs sets a refusal's RetryAfter to f(W) and its Reset to now
// plus that, so headers and body agree.
func RetryAfterIs(f func(w int64) int64) func(fakeserver.Config) fakeserver.Wrap {
	return EditStep(func(s *Step) {
		if !s.D.Allowed {
			ra := f(s.WindowSeconds())
			s.D.RetryAfter, s.D.Reset = ra, s.Now.Unix()+ra
		}
	})
}
