// Package modeltest is the conformance suite every model.Model must pass,
// written once and run against each design from a _test.go, in the spirit of
// throttled's store/storetest.
//
//	func TestPRD(t *testing.T) {
//		modeltest.Run(t, modeltest.Subject{New: func(n int, w time.Duration) model.Model { return model.PRD{Limit: n, Window: w} }})
//	}
//
// The properties hold for any design: purity, looks that change nothing,
// honest Write flags, refusals that change nothing and say when to retry,
// the burst a fresh key gets, recovery after RetryAfter, headers, and at most
// twice the limit in any span of one window. Designs with clauses of their
// own have a suite of their own (RunCounter, the sliding-window counter's
// SWC-1…3; RunQueue, the leaky bucket's LB-1…3), each property deciding
// from the decisions alone, with time an argument.
package modeltest

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
)

// Subject is a design under test.
type Subject struct {
	// New builds the model with a limit per window and a window length.
	New func(limit int, window time.Duration) model.Model
	// Unlimited is true for a model that never refuses (the flag off).
	Unlimited bool
}

// Properties are the suite's tests by name.
func Properties() map[string]func(testing.TB, Subject) {
	return map[string]func(testing.TB, Subject){
		"Pure":                  TestPure,
		"PeekChangesNothing":    TestPeekChangesNothing,
		"WriteIsHonest":         TestWriteIsHonest,
		"RefusalChangesNothing": TestRefusalChangesNothing,
		"Headers":               TestHeaders,
		"Burst":                 TestBurst,
		"Recovers":              TestRecovers,
		"TwiceLimitPerWindow":   TestTwiceLimitPerWindow,
	}
}

// Run runs every test of the suite as a subtest.
func Run(t *testing.T, s Subject) {
	t.Helper()
	subtests(t, Properties(), s)
}

// subtests runs each property of props on subject as a subtest.
func subtests[S any](t *testing.T, props map[string]func(testing.TB, S), subject S) {
	t.Helper()
	for name, test := range props {
		t.Run(name, func(t *testing.T) { test(t, subject) })
	}
}

// t0 is a whole second well after the epoch.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// call is one step of a random walk.
type call struct {
	st   model.State
	req  model.Request
	now  time.Time
	next model.State
	d    model.Decision
}

// walk threads the model's own states through n random requests (mostly
// spends, some looks), a third of them at the same instant as the one
// before, the rest up to 2·window/limit later.
func walk(s Subject, seed uint64, n int) ([]call, int, time.Duration) {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	limit := 1 + r.IntN(5)
	window := time.Duration(1+r.IntN(10)) * time.Second
	m := s.New(limit, window)
	var st model.State
	now := t0
	calls := make([]call, 0, n)
	for range n {
		if r.IntN(3) > 0 { // a third of the requests come at the same instant as the one before
			now = now.Add(time.Duration(r.Int64N(int64(2*window/time.Millisecond)/int64(limit)+1)) * time.Millisecond)
		}
		req := model.Request{Cost: 1}
		if r.IntN(5) == 0 {
			req.Cost = 0
		}
		next, d := m.Step(st, req, now)
		calls = append(calls, call{st: st, req: req, now: now, next: next, d: d})
		st = next
	}
	return calls, limit, window
}

const seeds, steps = 50, 200
