package prd

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// fakeSeeder records seeding calls.
type fakeSeeder struct {
	lim     *steptest.Limiter
	seeded  map[string]int
	expired []string
}

var _ scenario.StateSeeder = (*fakeSeeder)(nil)

func (f *fakeSeeder) SetRemaining(_ context.Context, id string, n int) error {
	if !f.lim.SetLeft(id, n) {
		return errors.New("no row for " + id)
	}
	f.seeded[id] = n
	return nil
}

func (f *fakeSeeder) ExpireWindow(_ context.Context, id string) error {
	f.expired = append(f.expired, id)
	return nil
}

func newTestScenario(t *testing.T, lim *steptest.Limiter) *World {
	t.Helper()
	env, err := steptest.Env(lim)
	if err != nil {
		t.Fatal(err)
	}
	return testWorld(context.Background(), env)
}

func TestConcurrentStepPassesACorrectLimiter(t *testing.T) {
	s := newTestScenario(t, steptest.NewLimiter(20))
	if err := s.freshBucketWithLeft(5); err != nil {
		t.Fatal(err)
	}
	if err := s.concurrentDifferent(12); err != nil {
		t.Fatal(err)
	}
	if err := s.exactlyMinNQ(); err != nil {
		t.Fatalf("correct limiter failed: %v", err)
	}
}

func TestConcurrentStepCatchesOversell(t *testing.T) {
	lim := steptest.NewLimiter(20)
	s := newTestScenario(t, lim)
	if err := s.freshBucketWithLeft(5); err != nil {
		t.Fatal(err)
	}
	lim.Oversell = true
	if err := s.concurrentDifferent(12); err != nil {
		t.Fatal(err)
	}
	err := s.exactlyMinNQ()
	var v *scenario.Violation
	if !errors.As(err, &v) || !slices.Equal(v.Clause, clause.Of(clause.AC7, clause.FR4)) || !strings.Contains(v.Actual, "12× 200") || len(v.Evidence) != 12 {
		t.Fatalf("oversell not reported as an AC7 violation: %v", err)
	}
}

func TestLeaveUnitsSeedsThroughTheSeeder(t *testing.T) {
	lim := steptest.NewLimiter(500)
	s := newTestScenario(t, lim)
	seeder := &fakeSeeder{lim: lim, seeded: map[string]int{}}
	s.Env().Seeder = seeder
	if err := s.freshBucketWithLeft(1); err != nil {
		t.Fatal(err)
	}
	if seeder.seeded[s.Bucket.ID] != 1 {
		t.Fatalf("seeded %v, want %s=1", seeder.seeded, s.Bucket.ID)
	}
	if err := s.addressBucketWithLeft(0); err != nil {
		t.Fatal(err)
	}
	if _, ok := seeder.seeded[scenario.AddrKey(s.Client().Addr())]; !ok {
		t.Fatalf("address bucket not seeded as ip:<addr>: %v", seeder.seeded)
	}
	if n := s.Client().(*steptest.Client).Requests(); n != 2 {
		t.Fatalf("%d requests sent, want 2 (one first request per bucket)", n)
	}
}

func TestLeaveUnitsDrainsWithoutSeeder(t *testing.T) {
	s := newTestScenario(t, steptest.NewLimiter(10))
	if err := s.freshBucketWithLeft(0); err != nil {
		t.Fatal(err)
	}
	if err := s.sendRide(); err != nil {
		t.Fatal(err)
	}
	if err := s.statusIs(429); err != nil {
		t.Fatal(err)
	}
	if err := s.bodyIsJSONError("rate_limited"); err != nil {
		t.Fatal(err)
	}
}

func TestWindowWaitBeyondMaxWaitIsSkippedWithReason(t *testing.T) {
	s := newTestScenario(t, steptest.NewLimiter(10))
	if err := s.freshBucketFirstSent(); err != nil {
		t.Fatal(err)
	}
	err := s.windowPassed()
	if !errors.Is(err, godog.ErrSkip) || !strings.Contains(err.Error(), "MAX_WAIT=15s") {
		t.Fatalf("err = %v, want a skip naming MAX_WAIT", err)
	}
}

func TestDifferentBodyGetsCachedResponse(t *testing.T) {
	for _, buggy := range []bool{false, true} {
		lim := steptest.NewLimiter(10)
		lim.IgnoreKey = buggy
		s := newTestScenario(t, lim)
		if err := s.FreshBucket(); err != nil {
			t.Fatal(err)
		}
		if err := s.sendRide(); err != nil {
			t.Fatal(err)
		}
		if err := s.sameKeyOtherBody(); err != nil {
			t.Fatal(err)
		}
		err := s.notCached()
		var v *scenario.Violation
		if buggy != errors.As(err, &v) {
			t.Fatalf("buggy=%v: err = %v", buggy, err)
		}
	}
}

func TestValidHeadersNamesTheBadHeader(t *testing.T) {
	s := newTestScenario(t, steptest.NewLimiter(10))
	now := time.Now()
	for name, h := range map[string]http.Header{
		"missing":  {dialect.HeaderLimit: {"10"}, dialect.HeaderReset: {"1"}},
		"negative": {dialect.HeaderLimit: {"10"}, dialect.HeaderRemaining: {"-1"}, dialect.HeaderReset: {strconv.FormatInt(now.Unix(), 10)}},
		"word":     {dialect.HeaderLimit: {"ten"}, dialect.HeaderRemaining: {"1"}, dialect.HeaderReset: {strconv.FormatInt(now.Unix(), 10)}},
		"past":     {dialect.HeaderLimit: {"10"}, dialect.HeaderRemaining: {"1"}, dialect.HeaderReset: {"1"}},
		"over":     {dialect.HeaderLimit: {"10"}, dialect.HeaderRemaining: {"11"}, dialect.HeaderReset: {strconv.FormatInt(now.Unix(), 10)}},
	} {
		ex := &httpclient.Exchange{Method: "POST", Status: 200, RespHeader: h, Sent: now, Received: now}
		err := s.validHeaders(ex)
		var v *scenario.Violation
		if !errors.As(err, &v) || !slices.Equal(v.Clause, clause.Of(clause.FR7)) {
			t.Errorf("%s: err = %v, want an FR-7 violation", name, err)
		}
	}
}

// testWorld is a scenario's PRD world on a State driven without godog.
func testWorld(ctx context.Context, env *scenario.Env) *World {
	return New(scenario.New(ctx, env))
}
