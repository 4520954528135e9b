package scenario

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"strconv"

	"github.com/cucumber/godog"
)

// Stepper is what step sets register their steps with: godog's
// ScenarioContext, or a replayer when a scenario is run once more.
type Stepper interface {
	Step(expr, stepFunc any)
}

var (
	_ Stepper = (*godog.ScenarioContext)(nil)
	_ Stepper = (*Replayer)(nil)
)

// Replayer runs a scenario's step texts against the steps registered on
// it, as godog would: the step whose expression matches the text is called
// with the submatches as its int or string arguments. The engine runs a
// scenario once more with it; tests drive steps by their text with it.
type Replayer struct {
	defs []stepDef
}

type stepDef struct {
	re *regexp.Regexp
	fn reflect.Value
}

// Step registers the step of expr.
func (p *Replayer) Step(expr, stepFunc any) {
	p.defs = append(p.defs, stepDef{re: regexp.MustCompile(expr.(string)), fn: reflect.ValueOf(stepFunc)})
}

// Run runs the step of text and returns its error.
func (p *Replayer) Run(text string) error {
	for _, d := range p.defs {
		m := d.re.FindStringSubmatch(text)
		if m == nil {
			continue
		}
		t := d.fn.Type()
		if t.NumIn() != len(m)-1 {
			return fmt.Errorf("step %q: %d arguments for %d parameters", text, len(m)-1, t.NumIn())
		}
		args := make([]reflect.Value, t.NumIn())
		for i := range args {
			switch t.In(i).Kind() {
			case reflect.Int:
				n, err := strconv.Atoi(m[i+1])
				if err != nil {
					return fmt.Errorf("step %q: argument %d: %w", text, i+1, err)
				}
				args[i] = reflect.ValueOf(n)
			case reflect.String:
				args[i] = reflect.ValueOf(m[i+1])
			default:
				return fmt.Errorf("step %q: parameter %d of kind %s", text, i+1, t.In(i).Kind())
			}
		}
		out := d.fn.Call(args)
		if err, _ := out[0].Interface().(error); err != nil {
			return err
		}
		return nil
	}
	return fmt.Errorf("step %q is undefined", text)
}

// Run runs the steps of texts as the scenario sc (its name and tags give
// the verdict's) without godog, with the steps of sets: the scenario's
// hooks, its re-run when a time assumption broke, and its verdict to
// env.Recorder, as under godog.
func Run(ctx context.Context, env *Env, sc *godog.Scenario, texts []string, sets ...StepSet) {
	s := newState(env, sets)
	s.texts = texts
	s.begin(ctx)
	p := &Replayer{}
	s.register(p)
	for i, text := range texts {
		if s.err = p.Run(text); s.err != nil {
			s.failedStep = i + 1
			break
		}
	}
	s.End(ctx, sc)
}
