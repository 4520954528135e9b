package steps

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/target"
)

// scenario is the fresh state of one scenario.
type scenario struct {
	env    *Env
	ctx    context.Context
	cancel context.CancelFunc
	start  time.Time

	base    string // the target this scenario talks to
	enabled bool   // false on the flag-off twin
	client  Client
	clients []Client

	bucket  string             // current device bucket
	first   *target.Exchange   // first exchange on the bucket (or address)
	last    *target.Exchange   // last exchange of a step that sends one request
	lastReq target.Request     // the request of last
	keyed   *target.Exchange   // the exchange a replay repeats
	spent   *target.Exchange   // last exchange whose headers say what is left
	batch   []*target.Exchange // exchanges of the last concurrent or bulk step
	batchN  int
	batchQ  int
	rounds  [][]*target.Exchange // batches of the boundary race
	seeded  bool                 // left was set through TARGET_DB
	left    int

	mu  sync.Mutex
	all []*target.Exchange

	err    error // first step error
	status Status
}

// Initializer returns the godog ScenarioInitializer: it registers the steps
// on a fresh state struct for every scenario.
func Initializer(env *Env) func(*godog.ScenarioContext) {
	return func(sc *godog.ScenarioContext) {
		s := &scenario{env: env, base: env.URL, enabled: true}
		sc.Before(s.before)
		sc.StepContext().After(s.afterStep)
		sc.After(s.after)
		s.register(sc)
	}
}

func (s *scenario) before(ctx context.Context, _ *godog.Scenario) (context.Context, error) {
	s.start = time.Now()
	s.ctx, s.cancel = context.WithTimeout(ctx, s.env.scenarioTimeout())
	return ctx, nil
}

func (s *scenario) afterStep(ctx context.Context, _ *godog.Step, st godog.StepResultStatus, err error) (context.Context, error) {
	if s.err == nil && err != nil {
		s.err = err
	}
	if s.err == nil && s.ctx != nil && s.ctx.Err() != nil {
		s.err = fmt.Errorf("scenario deadline of %s passed", s.env.scenarioTimeout())
	}
	return ctx, nil
}

func (s *scenario) after(ctx context.Context, sc *godog.Scenario, err error) (context.Context, error) {
	if s.err == nil && err != nil {
		s.err = err
	}
	if s.cancel != nil {
		s.cancel()
	}
	for _, c := range s.clients {
		c.Close()
	}
	if s.env.Recorder != nil {
		s.env.Recorder.Record(s.result(sc))
	}
	return ctx, nil
}

func (s *scenario) result(sc *godog.Scenario) ScenarioResult {
	r := ScenarioResult{Name: sc.Name, Feature: sc.Uri, Status: Passed, Duration: time.Since(s.start)}
	for _, t := range sc.Tags {
		name := strings.TrimPrefix(t.Name, "@")
		if id, ok := strings.CutPrefix(name, "id:"); ok {
			r.ID = id
			continue
		}
		r.Clauses = append(r.Clauses, name)
	}
	if id, _, ok := strings.Cut(r.Name, " "); ok && strings.HasPrefix(id, "RL-") {
		r.ID = id // outline rows carry their own id in the name
	}
	s.mu.Lock()
	r.Exchanges = append([]*target.Exchange(nil), s.all...)
	s.mu.Unlock()
	switch {
	case s.err == nil:
	case errors.Is(s.err, godog.ErrSkip):
		r.Status = Skipped
		r.Reason = strings.TrimPrefix(s.err.Error(), godog.ErrSkip.Error()+": ")
	default:
		r.Status = Failed
		r.Reason = s.err.Error()
		var v *Violation
		if errors.As(s.err, &v) {
			r.Violation = v
		}
	}
	return r
}

// skip is a step result saying the clause cannot be checked, and why.
func skip(format string, args ...any) error {
	return fmt.Errorf("%w: %s", godog.ErrSkip, fmt.Sprintf(format, args...))
}

// record keeps an exchange as evidence of the scenario.
func (s *scenario) record(exs ...*target.Exchange) {
	s.mu.Lock()
	s.all = append(s.all, exs...)
	s.mu.Unlock()
}

func (s *scenario) exchanges() []*target.Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*target.Exchange(nil), s.all...)
}

// theClient returns the scenario's client, created on first use.
func (s *scenario) theClient() Client {
	if s.client == nil {
		s.client = s.newClient()
	}
	return s.client
}

func (s *scenario) newClient() Client {
	c := s.env.NewClient(s.base)
	s.clients = append(s.clients, c)
	return c
}

func (s *scenario) limit() int { return s.env.Config.Limit }

// waitUntil waits for the clock to reach t, or the scenario's deadline.
func (s *scenario) waitUntil(t time.Time) error {
	d := t.Sub(s.env.now())
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-s.ctx.Done():
		return fmt.Errorf("scenario deadline reached while waiting: %w", s.ctx.Err())
	}
}
