package modeltest_test

import (
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/internal/tbrecord"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/model/modeltest"
)

// fails runs property p against s and reports whether it failed.
func fails(t *testing.T, p func(testing.TB, modeltest.Subject), s modeltest.Subject) bool {
	return len(tbrecord.Failures(t, func(tb testing.TB) { p(tb, s) })) > 0
}

// step makes a model from a function.
type step func(st model.State, req model.Request, now time.Time) (model.State, model.Decision)

func (f step) Step(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
	return f(st, req, now)
}

// mutant is the PRD with one defect.
func mutant(change func(prd model.PRD, st model.State, req model.Request, now time.Time) (model.State, model.Decision)) modeltest.Subject {
	return modeltest.Subject{New: func(n int, w time.Duration) model.Model {
		prd := model.PRD{Limit: n, Window: w}
		return step(func(st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			return change(prd, st, req, now)
		})
	}}
}

// Teeth: each property fails against a model that breaks it, and passes
// against the PRD.
func TestEachPropertyCatchesItsDefect(t *testing.T) {
	calls := 0
	var mu sync.Mutex
	mutants := map[string]modeltest.Subject{
		"Pure": mutant(func(p model.PRD, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := p.Step(st, req, now)
			mu.Lock()
			calls++
			d.Limit += calls // depends on how often it was called
			mu.Unlock()
			return next, d
		}),
		"PeekChangesNothing": mutant(func(p model.PRD, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			req.Cost = max(req.Cost, 1)
			return p.Step(st, req, now)
		}),
		"WriteIsHonest": mutant(func(p model.PRD, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := p.Step(st, req, now)
			d.Write = false
			return next, d
		}),
		"RefusalChangesNothing": mutant(func(p model.PRD, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := p.Step(st, req, now)
			if !d.Allowed {
				next.Reset = now.Unix() + int64(p.Window/time.Second)
				d.Write = next != st
			}
			return next, d
		}),
		"Headers": mutant(func(p model.PRD, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			next, d := p.Step(st, req, now)
			d.Remaining++
			return next, d
		}),
		"Burst": mutant(func(p model.PRD, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			p.Limit++
			return p.Step(st, req, now)
		}),
		"Recovers": mutant(func(p model.PRD, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			if st.Found && st.Reset <= now.Unix() {
				st.Reset = now.Unix() + 1 // never expires
			}
			return p.Step(st, req, now)
		}),
		"TwiceLimitPerWindow": mutant(func(p model.PRD, st model.State, req model.Request, now time.Time) (model.State, model.Decision) {
			if w := int64(p.Window / time.Second); st.Found && 4*(st.Reset-now.Unix()) < 3*w {
				st.Found = false // a new window opens every quarter window
			}
			return p.Step(st, req, now)
		}),
	}
	props := modeltest.Properties()
	if len(mutants) != len(props) {
		t.Fatalf("%d mutants for %d properties", len(mutants), len(props))
	}
	prd := modeltest.Subject{New: func(n int, w time.Duration) model.Model { return model.PRD{Limit: n, Window: w} }}
	for name, p := range props {
		if fails(t, p, prd) {
			t.Errorf("%s fails against the PRD", name)
		}
		if !fails(t, p, mutants[name]) {
			t.Errorf("%s passes against a model that breaks it", name)
		}
	}
}
