package steps

import (
	"errors"
	"testing"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// newInstancesScenario is a scenario over n instances: each base URL's
// clients answer from lims[base] (one shared limiter: one store).
func newInstancesScenario(t *testing.T, limit int, lims map[string]*fakeLimiter, urls ...string) (*world, map[string]int) {
	t.Helper()
	s := newTestScenario(t, lims[urls[0]])
	s.env.Config.Limit = limit
	s.env.URL, s.env.URLs = urls[0], urls
	s.SetBase(urls[0])
	s.SetRefs(clause.Of(clause.MI1))
	clients := map[string]int{}
	s.env.NewClient = func(base string) scenario.Client {
		clients[base]++
		return &fakeClient{addr: service.NewClientAddr(service.ClientIPsBind), lim: lims[base]}
	}
	return s, clients
}

// One instance: every multi-instance step skips, saying why.
func TestMultiInstanceSkipsWithOneInstance(t *testing.T) {
	lim := newFakeLimiter(10)
	s, _ := newInstancesScenario(t, 10, map[string]*fakeLimiter{"http://a": lim}, "http://a")
	for name, step := range map[string]func() error{
		"given":  func() error { _, err := s.instances(); return err },
		"burst":  func() error { return s.ridesOverInstances(5) },
		"spend":  func() error { return s.bucketToThroughFirst(3) },
		"spent":  s.bucketThroughEach,
		"keyed":  func() error { _ = s.freshKey(); return s.keyedOverInstances("N", 5) },
		"keyed2": func() error { _ = s.freshKey(); return s.keyThroughEach() },
	} {
		if err := step(); !errors.Is(err, godog.ErrSkip) {
			t.Errorf("%s: %v, want a skip", name, err)
		}
	}
}

// Two instances on one store: the burst is spread round-robin and gets
// exactly N; quota spent through the first is spent on the second.
func TestMultiInstanceOneStorePasses(t *testing.T) {
	lim := newFakeLimiter(10)
	lims := map[string]*fakeLimiter{"http://a": lim, "http://b": lim}
	s, clients := newInstancesScenario(t, 10, lims, "http://a", "http://b")
	if err := s.freshBucket(); err != nil {
		t.Fatal(err)
	}
	if err := s.ridesOverInstances(5); err != nil {
		t.Fatal(err)
	}
	if err := s.exactlyMinNQ(); err != nil {
		t.Fatalf("one store failed the burst: %v", err)
	}
	if clients["http://b"] != 1 {
		t.Fatalf("clients per instance %v", clients)
	}
	var second int
	for _, c := range s.others {
		second += len(c.(*fakeClient).reqs)
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
	lims := func() map[string]*fakeLimiter {
		return map[string]*fakeLimiter{"http://a": newFakeLimiter(10), "http://b": newFakeLimiter(10)}
	}
	s, _ := newInstancesScenario(t, 10, lims(), "http://a", "http://b")
	_ = s.freshBucket()
	if err := s.ridesOverInstances(5); err != nil {
		t.Fatal(err)
	}
	var v *scenario.Violation
	if err := s.exactlyMinNQ(); !errors.As(err, &v) {
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
	lim := newFakeLimiter(10)
	s, _ := newInstancesScenario(t, 10, map[string]*fakeLimiter{"http://a": lim, "http://b": lim}, "http://a", "http://b")
	s.env.Config = s.env.Config.ForProfile(profile.SlidingLog)
	s.env.Config.Key = service.Key{Kind: service.KeyIP}
	if err := s.freshKey(); err != nil {
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
