package scenario

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
)

// State is the fresh state of one scenario: its clock and deadline, its
// clients, the exchanges it recorded, the time assumptions its verdict
// rests on, and its first error. Step sets keep their own state next to
// it and reach the engine through its methods.
type State struct {
	env    *Env
	sets   []StepSet
	ctx    context.Context
	cancel context.CancelFunc
	start  time.Time

	base    string // the target this scenario talks to
	client  Client
	clients []Client

	refs clause.Refs // the scenario's clause tags, for its violations

	mu  sync.Mutex
	all []*httpclient.Exchange

	texts       []string     // the scenario's step texts, for a re-run
	stepIDs     []string     // godog's ids of those steps
	failedStep  int          // 1-based index of the step that ended the scenario; 0 none
	assumptions []assumption // time assumptions its checks rest on
	rerun       string       // why the scenario was run once more
	note        string       // what a check measured, for the report

	offset  time.Duration // how far Env.Ager moved the key's time (timemachine.go)
	agedKey func() string // the key whose stored window a wait ages; nil: none

	alone     func(*godog.Scenario) bool // whether the scenario runs alone
	exclusive bool                       // the scenario runs alone
	id        string                     // the scenario's @id (its place in Env.Turns)
	locked    bool                       // it holds Env.outage

	cleanups []func()                        // run when the scenario ends
	explains []func(*Violation)              // add to a violation when it ends
	causes   []func(*Violation, clause.Refs) // attribute a violation's cause

	err error // first step error
}

// StepSet registers a set of steps for one scenario: it makes the set's
// own state around st and registers its steps on sc. It is called again,
// on a fresh State, when the scenario is run once more.
type StepSet func(st *State, sc Stepper)

// Initializer returns the godog ScenarioInitializer: every scenario gets a
// fresh State on which every step set registers its steps.
func Initializer(env *Env, sets ...StepSet) func(*godog.ScenarioContext) {
	return func(sc *godog.ScenarioContext) {
		s := newState(env, sets)
		sc.Before(s.before)
		sc.StepContext().After(s.afterStep)
		sc.After(s.after)
		s.register(sc)
	}
}

func newState(env *Env, sets []StepSet) *State {
	return &State{env: env, sets: sets, base: env.URL}
}

// register registers every step set's steps on sc.
func (s *State) register(sc Stepper) {
	for _, set := range s.sets {
		set(s, sc)
	}
}

func (s *State) before(ctx context.Context, sc *godog.Scenario) (context.Context, error) {
	s.lockOutage(ctx, sc)
	s.begin(ctx)
	for _, t := range sc.Tags {
		if id, err := clause.Parse(t.Name); err == nil {
			s.refs = append(s.refs, id)
		}
	}
	for _, st := range sc.Steps {
		s.texts = append(s.texts, st.Text)
		s.stepIDs = append(s.stepIDs, st.Id)
	}
	return ctx, nil
}

// begin starts the scenario's clock and deadline.
func (s *State) begin(ctx context.Context) {
	s.start = time.Now()
	s.ctx, s.cancel = context.WithTimeout(ctx, s.env.scenarioTimeout())
}

func (s *State) afterStep(ctx context.Context, step *godog.Step, st godog.StepResultStatus, err error) (context.Context, error) {
	if s.err == nil && err != nil {
		s.err = err
		s.failedStep = slices.Index(s.stepIDs, step.Id) + 1
	}
	if s.err == nil && s.ctx != nil && s.ctx.Err() != nil {
		s.err = fmt.Errorf("scenario deadline of %s passed", s.env.scenarioTimeout())
	}
	return ctx, nil
}

func (s *State) after(ctx context.Context, sc *godog.Scenario, err error) (context.Context, error) {
	if s.err == nil && err != nil {
		s.err = err
	}
	s.End(ctx, sc)
	return ctx, nil
}

// End ends the scenario sc as godog's After hook does: it finishes its
// requests, runs it once more when a time assumption broke, and gives the
// verdict that counts to Env.Recorder.
func (s *State) End(ctx context.Context, sc *godog.Scenario) {
	s.finish()
	final := s.settle(ctx)
	s.unlockOutage()
	if s.env.Recorder != nil {
		s.env.Recorder.Record(final.Result(sc))
	}
}

// finish ends the scenario's requests: it runs the cleanups, adds what the
// step sets explain to a violation, then cancels the scenario's context
// and closes its clients.
func (s *State) finish() {
	for _, f := range s.cleanups {
		f()
	}
	var v *Violation
	if errors.As(s.err, &v) {
		for _, f := range s.explains {
			f(v)
		}
	}
	if s.cancel != nil {
		s.cancel()
	}
	for _, c := range s.clients {
		c.Close()
	}
}

// Result is the scenario's verdict as it stands, under sc's name and tags.
func (s *State) Result(sc *godog.Scenario) ScenarioResult {
	r := ScenarioResult{Name: sc.Name, Feature: sc.Uri, Status: Passed, Duration: time.Since(s.start)}
	for _, t := range sc.Tags {
		if id, ok := strings.CutPrefix(t.Name, "@id:"); ok {
			r.ID = id
			continue
		}
		if p, ok := strings.CutPrefix(t.Name, "@profile:"); ok {
			r.Profile = p
			continue
		}
		// Features carry registered clauses only (TestFeatureTagsAreClauses).
		r.Clauses = append(r.Clauses, clause.ID(strings.TrimPrefix(t.Name, "@")))
	}
	if id, _, ok := strings.Cut(r.Name, " "); ok && r.ID != "" && strings.HasPrefix(id, r.ID+".") {
		r.ID = id // outline rows carry their own id, <id>.<row>, in the name
	}
	s.mu.Lock()
	r.Exchanges = append([]*httpclient.Exchange(nil), s.all...)
	r.Rerun = s.rerun
	r.Steps = append([]string(nil), s.texts...)
	if s.err != nil {
		r.FailedStep = s.failedStep
	}
	r.Note = s.note
	s.mu.Unlock()
	switch {
	case s.err == nil:
	case errors.Is(s.err, godog.ErrSkip):
		r.Status = Skipped
		r.Reason = strings.TrimPrefix(s.err.Error(), godog.ErrSkip.Error()+": ")
	default:
		r.Status = Failed
		r.Cause = CauseOf(s.err)
		var v *Violation
		if errors.As(s.err, &v) {
			s.attribute(v, r.Clauses)
			r.Violation, r.Cause = v, v.Cause
		}
		r.Reason = s.err.Error()
	}
	return r
}

// Skip is a step result saying the clause cannot be checked, and why.
func Skip(format string, args ...any) error {
	return fmt.Errorf("%w: %s", godog.ErrSkip, fmt.Sprintf(format, args...))
}

// Env is what every scenario shares.
func (s *State) Env() *Env { return s.env }

// Ctx is the scenario's context: it ends at the scenario's deadline.
func (s *State) Ctx() context.Context { return s.ctx }

// Refs are the scenario's clause tags, for its violations.
func (s *State) Refs() clause.Refs { return s.refs }

// SetRefs sets the scenario's clause tags (godog's Before hook does, from
// its tags).
func (s *State) SetRefs(refs clause.Refs) { s.refs = refs }

// Limit is the configured limit (RL_LIMIT).
func (s *State) Limit() int { return s.env.Config.Limit }

// Rerun is why the scenario is being run once more, "" on its first run.
func (s *State) Rerun() string { return s.rerun }

// Err is the scenario's first error so far.
func (s *State) Err() error { return s.err }

// Fail sets the scenario's error when it has none yet.
func (s *State) Fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// SetNote sets what a passing check measured, for the report.
func (s *State) SetNote(note string) { s.note = note }

// OnFinish adds f to what runs when the scenario ends, before its clients
// close, on every path.
func (s *State) OnFinish(f func()) { s.cleanups = append(s.cleanups, f) }

// Explain adds f to what a violation is told when the scenario ends with
// one (while its clients are still open).
func (s *State) Explain(f func(*Violation)) { s.explains = append(s.explains, f) }

// Attribute adds f to what sets a violation's root cause (and may mark it a
// precondition) from the scenario's clause tags; a violation no f gave a
// cause is caused by the check that failed.
func (s *State) Attribute(f func(v *Violation, tags clause.Refs)) {
	s.causes = append(s.causes, f)
}

// attribute sets v's root cause.
func (s *State) attribute(v *Violation, tags []clause.ID) {
	for _, f := range s.causes {
		f(v, tags)
	}
	if v.Cause == "" {
		v.Cause = v.Clause.String() + ": " + v.Check
	}
}

// RunAloneIf makes a scenario for which alone holds wait for the others and
// run alone (one that takes the store away); others share the lock.
func (s *State) RunAloneIf(alone func(*godog.Scenario) bool) { s.alone = alone }

func (s *State) lockOutage(ctx context.Context, sc *godog.Scenario) {
	s.id = scenarioID(sc)
	s.env.Turns.wait(ctx, s.id, s.env.scenarioTimeout())
	s.exclusive = s.alone != nil && s.alone(sc)
	if s.exclusive {
		s.env.outage.Lock()
	} else {
		s.env.outage.RLock()
	}
	s.locked = true
}

func (s *State) unlockOutage() {
	if !s.locked {
		return
	}
	s.locked = false
	if s.exclusive {
		s.env.outage.Unlock()
		s.env.Turns.end(s.id)
	} else {
		s.env.outage.RUnlock()
	}
}

// Record keeps exchanges as evidence of the scenario.
func (s *State) Record(exs ...*httpclient.Exchange) {
	s.shift(exs)
	s.mu.Lock()
	s.all = append(s.all, exs...)
	s.mu.Unlock()
}

// Exchanges are the exchanges recorded so far.
func (s *State) Exchanges() []*httpclient.Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*httpclient.Exchange(nil), s.all...)
}

// Client returns the scenario's client, created on first use.
func (s *State) Client() Client {
	if s.client == nil {
		s.client = s.NewClient()
	}
	return s.client
}

// NewClient returns a fresh client of the scenario's target; it is closed
// when the scenario ends.
func (s *State) NewClient() Client {
	return s.Track(s.env.NewClient(s.base))
}

// Track has c closed when the scenario ends, and returns it.
func (s *State) Track(c Client) Client {
	s.clients = append(s.clients, c)
	return c
}

// Base is the base URL the scenario's clients talk to.
func (s *State) Base() string { return s.base }

// SetBase points the scenario's next clients at base (the flag-off twin,
// the penalties instance): its client is made afresh.
func (s *State) SetBase(base string) {
	s.base, s.client = base, nil
}

// New is a fresh State on ctx for driving steps without godog (tests): it
// has no deadline of its own and no step sets to run again.
func New(ctx context.Context, env *Env) *State {
	s := newState(env, nil)
	s.ctx = ctx
	return s
}
