package penalties

import (
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
)

// penaltyStep is a penalties fault as a function of the correct
// model.Penalties and one step's arguments.
type penaltyStep func(p model.Penalties, st model.State, req model.Request, now time.Time) (model.State, model.Decision)

// wrapPenalties is the Wrap of a penalties fault: it replaces the server's
// model.Penalties (RL_PENALTIES) and leaves a server without penalties as
// it is.
func wrapPenalties(f penaltyStep) func(fakeserver.Config) fakeserver.Wrap {
	return func(fakeserver.Config) fakeserver.Wrap {
		return fakeserver.Wrap{Model: func(m model.Model) model.Model {
			p, ok := m.(model.Penalties)
			if !ok {
				return m
			}
			return fault.StepFunc(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
				return f(p, st, req, now)
			})
		}}
	}
}

// refusalStep is a penalties fault in what a request refused under an
// active penalty does: the correct step's next state and decision, changed.
type refusalStep func(p model.Penalties, st model.State, req model.Request, now time.Time, next model.State, d model.Decision) (model.State, model.Decision)

// wrapRefusals is the Wrap of a refusalStep: every other request gets the
// correct model's answer.
func wrapRefusals(f refusalStep) func(fakeserver.Config) fakeserver.Wrap {
	return wrapPenalties(func(p model.Penalties, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
		next, d := p.Step(st, req, now)
		if !p.Active(st, now) || req.Cost == 0 {
			return next, d
		}
		return f(p, st, req, now, next, d)
	})
}
