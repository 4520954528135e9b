package steps

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

// scenario is the fresh state of one scenario. What one step leaves for the
// next travels in three typed records: the bucket under test, the last
// single exchange and the last concurrent or bulk batch.
type scenario struct {
	env    *Env
	ctx    context.Context
	cancel context.CancelFunc
	start  time.Time

	base    string // the target this scenario talks to
	enabled bool   // false on the flag-off twin
	client  Client
	clients []Client
	spoofer Client   // sends an untrusted X-Forwarded-For (spoofClient)
	others  []Client // clients of the instances after the first (MI-1)

	bucket   bucketState
	key      keyState    // the key under test (profiles other than the PRD)
	refs     clause.Refs // the scenario's clause tags, for its violations
	last     lastExchange
	batch    batch
	address  addressLedger
	pen      penaltyState // feature penalties: what the key's violations started
	tierRuns []tierRun    // feature tiers: what each tier answered the key
	grid     gridState    // FW-2-02: the key's first request and the multiple of W after it

	mu  sync.Mutex
	all []*httpclient.Exchange

	texts         []string     // the scenario's step texts, for a re-run
	stepIDs       []string     // godog's ids of those steps
	failedStep    int          // 1-based index of the step that ended the scenario; 0 none
	assumptions   []assumption // time assumptions its checks rest on
	windowAssumed bool         // the bucket's one-window assumption is recorded
	rerun         string       // why the scenario was run once more
	note          string       // what a check measured, for the report

	offset time.Duration // how far Env.Ager moved the key's time (timemachine.go)

	exclusive bool // the scenario takes the store away and runs alone
	locked    bool // it holds Env.outage
	storeDown bool // it took the store away and has not brought it back

	err error // first step error
}

// bucketState is what the scenario knows of the bucket it is testing.
type bucketState struct {
	id     string               // the device bucket ("" until one is made)
	first  *httpclient.Exchange // first exchange on the bucket (or address)
	from   int                  // index of the current window's first exchange
	until  int                  // index where one window stops mattering (-1: never)
	spent  *httpclient.Exchange // last exchange whose headers say what is left
	seeded bool                 // left was set through TARGET_DB
	left   int
}

// lastExchange is the record of the last step that sent one request.
type lastExchange struct {
	req   httpclient.Request   // what was sent
	ex    *httpclient.Exchange // what came back
	keyed *httpclient.Exchange // the exchange a replay or a reused key repeats
}

// batch is the record of the last concurrent or bulk step.
type batch struct {
	exchanges []*httpclient.Exchange
	sent      int                      // requests sent at once
	left      int                      // units the bucket had before them
	rounds    [][]*httpclient.Exchange // its rounds (identical requests, boundary race)
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

func (s *scenario) before(ctx context.Context, sc *godog.Scenario) (context.Context, error) {
	s.lockOutage(sc)
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
func (s *scenario) begin(ctx context.Context) {
	s.start = time.Now()
	s.ctx, s.cancel = context.WithTimeout(ctx, s.env.scenarioTimeout())
}

func (s *scenario) afterStep(ctx context.Context, step *godog.Step, st godog.StepResultStatus, err error) (context.Context, error) {
	if s.err == nil && err != nil {
		s.err = err
		s.failedStep = slices.Index(s.stepIDs, step.Id) + 1
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
	s.finish()
	final := s.settle(ctx)
	s.unlockOutage()
	if s.env.Recorder != nil {
		s.env.Recorder.Record(final.result(sc))
	}
	return ctx, nil
}

// finish ends the scenario's requests: it adds what was spent to a
// violation, then cancels the scenario's context and closes its clients.
func (s *scenario) finish() {
	s.restoreStore()
	var v *Violation
	if errors.As(s.err, &v) {
		s.explainSpend(v)
	}
	if s.cancel != nil {
		s.cancel()
	}
	for _, c := range s.clients {
		c.Close()
	}
}

func (s *scenario) result(sc *godog.Scenario) ScenarioResult {
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
		r.Cause = causeOf(s.err)
		var v *Violation
		if errors.As(s.err, &v) {
			s.attribute(v, r.Clauses)
			r.Violation, r.Cause = v, v.Cause
		}
		r.Reason = s.err.Error()
	}
	return r
}

// skip is a step result saying the clause cannot be checked, and why.
func skip(format string, args ...any) error {
	return fmt.Errorf("%w: %s", godog.ErrSkip, fmt.Sprintf(format, args...))
}

// record keeps an exchange as evidence of the scenario.
func (s *scenario) record(exs ...*httpclient.Exchange) {
	s.shift(exs)
	s.mu.Lock()
	s.all = append(s.all, exs...)
	s.mu.Unlock()
}

func (s *scenario) exchanges() []*httpclient.Exchange {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*httpclient.Exchange(nil), s.all...)
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
	if s.env.Wait != nil {
		return s.env.Wait(s.ctx, t)
	}
	if s.ageable() {
		return s.age(t)
	}
	d := t.Sub(s.env.now())
	if d <= 0 {
		return nil
	}
	if err := s.mayWaitUntil(t); err != nil {
		return err
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-s.ctx.Done():
		return couldNotDecide(s.ctx, d)
	}
}

// mayWaitUntil is a skip when reaching t on the wall clock would take
// longer than MAX_WAIT (a scenario that needs longer is SKIPPED with that
// reason, the target contract says), nil otherwise or when the wait is
// not on the wall clock (Env.Wait, a key that ages).
func (s *scenario) mayWaitUntil(t time.Time) error {
	if s.env.Wait != nil || s.ageable() {
		return nil
	}
	if d, most := t.Sub(s.env.now()), s.env.MaxWait; most > 0 && d > most {
		return skip("needs to wait %s, longer than MAX_WAIT=%s", d.Round(time.Second), most)
	}
	return nil
}

// couldNotDecide is the skip of a scenario whose own deadline passed while
// it waited d: rlspec running out of its time is not the target failing a
// clause (a starved machine, issue 27), so the scenario says it could not
// decide. An interrupt (the run cancelled) stays an error.
func couldNotDecide(ctx context.Context, d time.Duration) error {
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("interrupted while waiting: %w", ctx.Err())
	}
	dl, _ := ctx.Deadline()
	return skip("could not decide: the scenario's deadline (%s) passed while it waited %s; "+
		"the target failed no clause (raise MAX_WAIT, or run on a less loaded machine)", dl.Format(time.RFC3339), d.Round(time.Millisecond))
}
