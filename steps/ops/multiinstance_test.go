package ops

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// newInstancesScenario is a scenario over n instances: each base URL's
// clients answer from lims[base] (one shared limiter: one store).
func newInstancesScenario(t *testing.T, limit int, lims map[string]*steptest.Limiter, urls ...string) (*state, map[string]int) {
	t.Helper()
	env, err := steptest.Env(lims[urls[0]])
	if err != nil {
		t.Fatal(err)
	}
	s := testWorld(context.Background(), env)
	s.Env().Config.Limit = limit
	s.Env().URL, s.Env().URLs = urls[0], urls
	s.SetBase(urls[0])
	s.SetRefs(clause.Of(clause.MI1))
	clients := map[string]int{}
	s.Env().NewClient = func(base string) scenario.Client {
		clients[base]++
		return steptest.NewClient(lims[base])
	}
	return s, clients
}

// One instance: every multi-instance step skips, saying why.
func TestMultiInstanceSkipsWithOneInstance(t *testing.T) {
	lim := steptest.NewLimiter(10)
	s, _ := newInstancesScenario(t, 10, map[string]*steptest.Limiter{"http://a": lim}, "http://a")
	for name, step := range map[string]func() error{
		"given":  func() error { _, err := s.instances(); return err },
		"burst":  func() error { return s.ridesOverInstances(5) },
		"spend":  func() error { return s.bucketToThroughFirst(3) },
		"spent":  s.bucketThroughEach,
		"keyed":  func() error { _ = s.run("a fresh key"); return s.keyedOverInstances("N", 5) },
		"keyed2": func() error { _ = s.run("a fresh key"); return s.keyThroughEach() },
	} {
		if err := step(); !errors.Is(err, godog.ErrSkip) {
			t.Errorf("%s: %v, want a skip", name, err)
		}
	}
}

// Two instances on one store: the burst is spread round-robin and gets
// exactly N; quota spent through the first is spent on the second.
func TestMultiInstanceOneStorePasses(t *testing.T) {
	lim := steptest.NewLimiter(10)
	lims := map[string]*steptest.Limiter{"http://a": lim, "http://b": lim}
	s, clients := newInstancesScenario(t, 10, lims, "http://a", "http://b")
	if err := s.prd.FreshBucket(); err != nil {
		t.Fatal(err)
	}
	if err := s.ridesOverInstances(5); err != nil {
		t.Fatal(err)
	}
	if err := s.run("exactly min(N, Q) got 200 with Remaining Q-1 down to Q-min(N, Q) each once and the rest 429"); err != nil {
		t.Fatalf("one store failed the burst: %v", err)
	}
	if clients["http://b"] != 1 {
		t.Fatalf("clients per instance %v", clients)
	}
	var second int
	for _, c := range s.others {
		second += c.(*steptest.Client).Requests()
	}
	if second < 15/2 { // the second instance's share, predial included
		t.Fatalf("the second instance got %d of the requests", second)
	}

	s, _ = newInstancesScenario(t, 10, lims, "http://a", "http://b")
	for _, step := range []func() error{s.bucketThroughEach, func() error { return s.bucketToThroughFirst(0) }, s.bucketRefusedElsewhere} {
		if err := step(); err != nil {
			t.Fatalf("one store: %v", err)
		}
	}
	if s.Broken() != "" {
		t.Fatalf("assumption broke: %s", s.Broken())
	}
}

// Two instances with a store each: the burst oversells and a bucket spent
// on one is fresh on the other, both charged to MI-1.
func TestMultiInstanceSeparateStoresFail(t *testing.T) {
	lims := func() map[string]*steptest.Limiter {
		return map[string]*steptest.Limiter{"http://a": steptest.NewLimiter(10), "http://b": steptest.NewLimiter(10)}
	}
	s, _ := newInstancesScenario(t, 10, lims(), "http://a", "http://b")
	_ = s.prd.FreshBucket()
	if err := s.ridesOverInstances(5); err != nil {
		t.Fatal(err)
	}
	var v *scenario.Violation
	if err := s.run("exactly min(N, Q) got 200 with Remaining Q-1 down to Q-min(N, Q) each once and the rest 429"); !errors.As(err, &v) {
		t.Fatalf("separate stores passed the burst: %v", err)
	}
	chargeMI1(v)
	if v.Clause.Primary() != clause.MI1 {
		t.Fatalf("burst charged to %s", v.Clause)
	}

	s, _ = newInstancesScenario(t, 10, lims(), "http://a", "http://b")
	if err := s.bucketThroughEach(); !errors.As(err, &v) || v.Precondition || v.Clause.Primary() != clause.MI1 {
		t.Fatalf("separate stores: the second instance's first ride was not an MI-1 violation: %v", err)
	}
}

// KEY=ip: the key is the client address, which each instance's client
// has of its own; the keyed multi-instance steps skip rather than judge
// different keys.
func TestMultiInstanceSkipsKeyIP(t *testing.T) {
	lim := steptest.NewLimiter(10)
	s, _ := newInstancesScenario(t, 10, map[string]*steptest.Limiter{"http://a": lim, "http://b": lim}, "http://a", "http://b")
	s.Env().Config = s.Env().Config.ForProfile(profile.SlidingLog)
	s.Env().Config.Key = service.Key{Kind: service.KeyIP}
	if err := s.run("a fresh key"); err != nil {
		t.Fatal(err)
	}
	for name, step := range map[string]func() error{
		"through each": s.keyThroughEach,
		"burst":        func() error { return s.keyedOverInstances("N", 5) },
	} {
		if err := step(); !errors.Is(err, godog.ErrSkip) {
			t.Errorf("%s: %v, want a skip", name, err)
		}
	}
}

// A busy store's 503 with Retry-After is no decision: on one store the
// burst with one undecided request gives no verdict (the run's
// assumption breaks, so it runs again), while separate stores' oversell
// stays a violation whatever the undecided request would have been.
func TestMultiInstanceBusyStoreIsNoVerdict(t *testing.T) {
	const burst = "exactly min(N, Q) got 200 with Remaining Q-1 down to Q-min(N, Q) each once and the rest 429"
	lim := steptest.NewLimiter(10)
	s, _ := newInstancesScenario(t, 10, map[string]*steptest.Limiter{"http://a": lim, "http://b": lim}, "http://a", "http://b")
	if err := s.severalInstances(); err != nil {
		t.Fatal(err)
	}
	if err := s.prd.FreshBucket(); err != nil {
		t.Fatal(err)
	}
	if s.Broken() != "" {
		t.Fatalf("broken before any busy answer: %s", s.Broken())
	}
	lim.Busy = 1
	if err := s.ridesOverInstances(5); err != nil {
		t.Fatal(err)
	}
	if err := s.run(burst); err != nil {
		t.Fatalf("one store with a busy answer: %v, want no verdict", err)
	}
	if why := s.Broken(); !strings.Contains(why, "every request decided") || !strings.Contains(why, "1 of 15 requests got 503") {
		t.Fatalf("assumption: %q", why)
	}

	a, b := steptest.NewLimiter(10), steptest.NewLimiter(10)
	s, _ = newInstancesScenario(t, 10, map[string]*steptest.Limiter{"http://a": a, "http://b": b}, "http://a", "http://b")
	_ = s.prd.FreshBucket()
	a.Busy = 1
	if err := s.ridesOverInstances(5); err != nil {
		t.Fatal(err)
	}
	var v *scenario.Violation
	if err := s.run(burst); !errors.As(err, &v) || !strings.Contains(v.Actual, "1× 503 with Retry-After") {
		t.Fatalf("separate stores with a busy answer: %v, want the oversell", err)
	}
}
