package steps

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cucumber/godog"
	messages "github.com/cucumber/messages/go/v21"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// fakeClient is a hand-rolled stand-in for the Client interface (replaceable
// by a mockery mock): it answers from an in-memory limiter whose defects a
// test can switch on.
type fakeClient struct {
	addr netip.Addr
	lim  *fakeLimiter
	mu   sync.Mutex
	reqs []service.Request
}

var _ scenario.Client = (*fakeClient)(nil)

func (c *fakeClient) Addr() netip.Addr { return c.addr }
func (c *fakeClient) Close()           {}

func (c *fakeClient) Do(_ context.Context, r service.Request) *service.Exchange {
	c.mu.Lock()
	c.reqs = append(c.reqs, r)
	c.mu.Unlock()
	ex := &service.Exchange{Method: r.Method, Body: r.Body, ClientAddr: c.addr, Sent: time.Now()}
	if ex.Method == "" {
		ex.Method = http.MethodPost
	}
	if ex.Method == http.MethodPost {
		c.lim.answer(c.addr, r, ex)
	} else {
		ex.Status = http.StatusMethodNotAllowed
	}
	ex.Received = time.Now()
	return ex
}

// fakeLimiter is a tiny limiter keyed by device_bucket or address.
type fakeLimiter struct {
	mu        sync.Mutex
	limit     int
	left      map[string]int
	cache     map[string]*service.Exchange
	oversell  bool // the bug: every request sees the quota before any spend
	ignoreKey bool // the bug: the same key with any body gets the cache
	noReplay  bool // the bug: a replay is processed (and spends) again
	ownBucket bool // the bug: an invalid device_bucket is a bucket of its own
}

func newFakeLimiter(limit int) *fakeLimiter {
	return &fakeLimiter{limit: limit, left: map[string]int{}, cache: map[string]*service.Exchange{}}
}

func (l *fakeLimiter) answer(addr netip.Addr, r service.Request, ex *service.Exchange) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var body map[string]any
	if json.Unmarshal(r.Body, &body) != nil {
		ex.Status, ex.RespBody = 400, []byte(`{"error":"bad_request"}`)
		return
	}
	key, _ := body["device_bucket"].(string)
	_, present := body["device_bucket"]
	if len(key) != 64 && !(l.ownBucket && present) {
		key = "ip:" + addr.String()
	}
	if c, ok := l.cache[r.IdempotencyKey]; ok && !l.noReplay && (l.ignoreKey || string(c.Body) == string(r.Body)) {
		ex.Status, ex.RespHeader, ex.RespBody = c.Status, c.RespHeader, c.RespBody
		return
	}
	left, ok := l.left[key]
	if !ok {
		left = l.limit
	}
	ex.RespHeader = http.Header{}
	ex.RespHeader.Set(service.HeaderLimit, strconv.Itoa(l.limit))
	ex.RespHeader.Set(service.HeaderReset, strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10))
	if left <= 0 {
		ex.Status, ex.RespBody = 429, []byte(`{"error":"rate_limited"}`)
		ex.RespHeader.Set(service.HeaderRemaining, "0")
		ex.RespHeader.Set(service.HeaderRetryAfter, "3600")
		return
	}
	if !l.oversell {
		l.left[key] = left - 1
	}
	ex.Status, ex.RespBody = 200, []byte(`{"status":"accepted"}`)
	ex.RespHeader.Set(service.HeaderRemaining, strconv.Itoa(left-1))
	if r.IdempotencyKey != "" {
		l.cache[r.IdempotencyKey] = ex
	}
}

// fakeSeeder records seeding calls.
type fakeSeeder struct {
	lim     *fakeLimiter
	seeded  map[string]int
	expired []string
}

var _ scenario.StateSeeder = (*fakeSeeder)(nil)

func (f *fakeSeeder) SetRemaining(_ context.Context, id string, n int) error {
	f.lim.mu.Lock()
	defer f.lim.mu.Unlock()
	if _, ok := f.lim.left[id]; !ok {
		return errors.New("no row for " + id)
	}
	f.lim.left[id] = n
	f.seeded[id] = n
	return nil
}

func (f *fakeSeeder) ExpireWindow(_ context.Context, id string) error {
	f.expired = append(f.expired, id)
	return nil
}

func newTestScenario(t *testing.T, lim *fakeLimiter) *world {
	t.Helper()
	cfg := service.DefaultConfig()
	cfg.Limit = lim.limit
	body, err := service.LoadBody("")
	if err != nil {
		t.Fatal(err)
	}
	env := &scenario.Env{Config: cfg, URL: "http://fake", Body: body, Now: time.Now, MaxWait: service.DefaultMaxWait,
		NewClient: func(string) scenario.Client {
			return &fakeClient{addr: service.NewClientAddr(service.ClientIPsBind), lim: lim}
		}}
	return testWorld(context.Background(), env)
}

func TestConcurrentStepPassesACorrectLimiter(t *testing.T) {
	s := newTestScenario(t, newFakeLimiter(20))
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
	lim := newFakeLimiter(20)
	s := newTestScenario(t, lim)
	if err := s.freshBucketWithLeft(5); err != nil {
		t.Fatal(err)
	}
	lim.oversell = true
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
	lim := newFakeLimiter(500)
	s := newTestScenario(t, lim)
	seeder := &fakeSeeder{lim: lim, seeded: map[string]int{}}
	s.env.Seeder = seeder
	if err := s.freshBucketWithLeft(1); err != nil {
		t.Fatal(err)
	}
	if seeder.seeded[s.bucket.id] != 1 {
		t.Fatalf("seeded %v, want %s=1", seeder.seeded, s.bucket.id)
	}
	if err := s.addressBucketWithLeft(0); err != nil {
		t.Fatal(err)
	}
	if _, ok := seeder.seeded[scenario.AddrKey(s.Client().Addr())]; !ok {
		t.Fatalf("address bucket not seeded as ip:<addr>: %v", seeder.seeded)
	}
	if n := len(s.Client().(*fakeClient).reqs); n != 2 {
		t.Fatalf("%d requests sent, want 2 (one first request per bucket)", n)
	}
}

func TestLeaveUnitsDrainsWithoutSeeder(t *testing.T) {
	s := newTestScenario(t, newFakeLimiter(10))
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
	s := newTestScenario(t, newFakeLimiter(10))
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
		lim := newFakeLimiter(10)
		lim.ignoreKey = buggy
		s := newTestScenario(t, lim)
		if err := s.freshBucket(); err != nil {
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
	s := newTestScenario(t, newFakeLimiter(10))
	now := time.Now()
	for name, h := range map[string]http.Header{
		"missing":  {service.HeaderLimit: {"10"}, service.HeaderReset: {"1"}},
		"negative": {service.HeaderLimit: {"10"}, service.HeaderRemaining: {"-1"}, service.HeaderReset: {strconv.FormatInt(now.Unix(), 10)}},
		"word":     {service.HeaderLimit: {"ten"}, service.HeaderRemaining: {"1"}, service.HeaderReset: {strconv.FormatInt(now.Unix(), 10)}},
		"past":     {service.HeaderLimit: {"10"}, service.HeaderRemaining: {"1"}, service.HeaderReset: {"1"}},
		"over":     {service.HeaderLimit: {"10"}, service.HeaderRemaining: {"11"}, service.HeaderReset: {strconv.FormatInt(now.Unix(), 10)}},
	} {
		ex := &service.Exchange{Method: "POST", Status: 200, RespHeader: h, Sent: now, Received: now}
		err := s.validHeaders(ex)
		var v *scenario.Violation
		if !errors.As(err, &v) || !slices.Equal(v.Clause, clause.Of(clause.FR7)) {
			t.Errorf("%s: err = %v, want an FR-7 violation", name, err)
		}
	}
}

func fakeGodogScenario(name string, tags ...string) *godog.Scenario {
	sc := &godog.Scenario{Name: name}
	for _, tag := range tags {
		sc.Tags = append(sc.Tags, &messages.PickleTag{Name: tag})
	}
	return sc
}

// testWorld is a scenario's world on a State driven without godog.
func testWorld(ctx context.Context, env *scenario.Env) *world {
	return newWorld(scenario.New(ctx, env))
}
