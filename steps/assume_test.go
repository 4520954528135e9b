package steps

import (
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// fakeTime is a fake clock; waiting moves it (by a share of the wait, for
// a clock that jumps).
type fakeTime struct {
	mu    sync.Mutex
	now   time.Time
	share float64 // of each wait that passes; 0 means all of it
}

func (f *fakeTime) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeTime) Wait(_ context.Context, until time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if d := until.Sub(f.now); d > 0 {
		if f.share > 0 {
			d = time.Duration(float64(d) * f.share)
		}
		f.now = f.now.Add(d)
	}
	return nil
}

func (f *fakeTime) advance(d time.Duration) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	return f.now
}

// slowServer is a correct fixed-window limiter (a window opened by a
// bucket's first request, idempotent replays) on a fake clock, with one
// worker: requests queue, and each takes delay(n) for the n-th request.
// With sliding, Reset is now + window on every response (a defect).
type slowServer struct {
	clock   *fakeTime
	limit   int
	window  time.Duration
	delay   func(n int) time.Duration
	sliding bool

	behind       time.Duration // the server's clock is behind the harness's by this
	noReset      bool          // a defect: a window never ends
	replaySpends bool          // a defect: a replay gets the cached response and spends a unit

	mu      sync.Mutex
	n       int
	buckets map[string]*fwBucket
	cache   map[string]*httpclient.Exchange
}

type fwBucket struct {
	left int
	end  time.Time
}

func (s *slowServer) Do(_ context.Context, r httpclient.Request) *httpclient.Exchange {
	ex := &httpclient.Exchange{Method: r.Method, Body: r.Body, Sent: s.clock.Now()}
	if ex.Method == "" {
		ex.Method = http.MethodPost
	}
	if ex.Method != http.MethodPost {
		ex.Status, ex.Received = http.StatusMethodNotAllowed, ex.Sent
		return ex
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ex.Received = s.clock.advance(s.delay(s.n))
	s.n++
	now := ex.Received.Add(-s.behind)
	var body struct {
		Bucket string `json:"device_bucket"`
	}
	_ = json.Unmarshal(r.Body, &body)
	if c, ok := s.cache[r.IdempotencyKey]; ok && string(c.Body) == string(r.Body) {
		ex.Status, ex.RespHeader, ex.RespBody = c.Status, c.RespHeader, c.RespBody
		if b := s.buckets[body.Bucket]; s.replaySpends && b != nil && b.left > 0 {
			b.left--
		}
		return ex
	}
	b := s.buckets[body.Bucket]
	if b == nil || (!s.noReset && !now.Before(b.end)) {
		b = &fwBucket{left: s.limit, end: now.Add(s.window)}
		s.buckets[body.Bucket] = b
	}
	reset := b.end
	if s.sliding {
		reset = now.Add(s.window)
	}
	ex.Status, ex.RespBody = http.StatusOK, []byte(`{"status":"accepted"}`)
	if b.left == 0 {
		ex.Status, ex.RespBody = http.StatusTooManyRequests, []byte(`{"error":"rate_limited"}`)
	} else {
		b.left--
	}
	ex.RespHeader = http.Header{"Date": {now.UTC().Format(http.TimeFormat)}}
	ex.RespHeader.Set(dialect.HeaderLimit, strconv.Itoa(s.limit))
	ex.RespHeader.Set(dialect.HeaderRemaining, strconv.Itoa(b.left))
	ex.RespHeader.Set(dialect.HeaderReset, strconv.FormatInt(reset.Unix(), 10))
	if ex.Status == http.StatusTooManyRequests {
		ex.RespHeader.Set(dialect.HeaderRetryAfter, strconv.Itoa(int(reset.Sub(now).Seconds())+1))
	}
	s.cache[r.IdempotencyKey] = ex
	return ex
}

func newSlowServer(clock *fakeTime, limit int, window time.Duration, delay func(int) time.Duration) *slowServer {
	return &slowServer{clock: clock, limit: limit, window: window, delay: delay,
		buckets: map[string]*fwBucket{}, cache: map[string]*httpclient.Exchange{}}
}

// runScenario runs texts as godog would (steps in order, stopping at the
// first error) on a scenario whose clients are mockery mocks answered by
// srv, and returns the verdict its end records.
func runScenario(t *testing.T, srv *slowServer, window time.Duration, texts ...string) scenario.ScenarioResult {
	t.Helper()
	cfg := service.DefaultConfig()
	cfg.Limit, cfg.Window = srv.limit, window
	return runScenarioOn(t, cfg, srv.clock, anyAddress(srv.Do), texts...)
}

// answer is a fake target: the response to r from a client at addr.
type answer func(addr netip.Addr, ctx context.Context, r httpclient.Request) *httpclient.Exchange

// anyAddress is do as an answer that does not look at the address.
func anyAddress(do func(context.Context, httpclient.Request) *httpclient.Exchange) answer {
	return func(_ netip.Addr, ctx context.Context, r httpclient.Request) *httpclient.Exchange { return do(ctx, r) }
}

// runScenarioOn is runScenario with cfg, on clock, answered by do; each
// client the scenario makes has an address of its own (127.0.0.9, .10, …).
func runScenarioOn(t *testing.T, cfg service.Config, clock *fakeTime, do answer, texts ...string) scenario.ScenarioResult {
	t.Helper()
	body, err := bodytmpl.Load("")
	if err != nil {
		t.Fatal(err)
	}
	var got scenario.ScenarioResult
	records := 0
	rec := steptest.RecordFunc(func(r scenario.ScenarioResult) { got = r; records++ })
	clients := 0
	env := &scenario.Env{Config: cfg, URL: "http://fake", Body: body, Now: clock.Now, Wait: clock.Wait, Recorder: rec, MaxWait: service.DefaultMaxWait,
		NewClient: func(string) scenario.Client {
			addr := netip.AddrFrom4([4]byte{127, 0, 0, byte(9 + clients)})
			clients++
			return steptest.FuncClient{Address: addr, Answer: func(ctx context.Context, r httpclient.Request) *httpclient.Exchange {
				return do(addr, ctx, r)
			}}
		}}
	scenario.Run(context.Background(), env, steptest.Scenario("RL-T [x] t", "@id:RL-T"), texts, registerAll)
	if records != 1 {
		t.Fatalf("the scenario recorded %d verdicts, want 1", records)
	}
	return got
}

var ac602 = []string{
	"a fresh device bucket",
	"5 rounds of 16 identical rides, one Idempotency-Key per round, are sent concurrently",
	"none of the concurrent rides got a 5xx",
	"the next fresh ride's Remaining is the limit minus 6",
}

func every(d time.Duration) func(int) time.Duration { return func(int) time.Duration { return d } }

// slowAt is 1 ms a request but d for the i-th.
func slowAt(i int, d time.Duration) func(int) time.Duration {
	return func(n int) time.Duration {
		if n == i {
			return d
		}
		return time.Millisecond
	}
}

// Issue 17 item 1: AC6-02 with RL_LIMIT=20 RL_WINDOW=3s against a
// correct server taking 50 ms a request: the 80 requests span the window's
// end, the quota resets midway, and the next fresh ride shows Remaining 17,
// not 14. That is not a verdict on the target: the scenario is run again,
// and skipped with the reason when the window breaks again.
func TestAC602OnASlowServerIsNeverAFalseFailure(t *testing.T) {
	clock := &fakeTime{now: time.Unix(1_800_000_000, 0)}
	r := runScenario(t, newSlowServer(clock, 20, 3*time.Second, every(50*time.Millisecond)), 3*time.Second, ac602...)
	if r.Status != scenario.Skipped || !strings.Contains(r.Reason, "one window did not hold") || r.Rerun == "" {
		t.Fatalf("%s: %s (re-run: %q)", r.Status, r.Reason, r.Rerun)
	}
}

// When the second run keeps to one window, its verdict stands.
func TestAC602SecondRunInOneWindowGivesTheVerdict(t *testing.T) {
	clock := &fakeTime{now: time.Unix(1_800_000_000, 0)}
	slowFirst := func(n int) time.Duration {
		if n <= 81 {
			return 50 * time.Millisecond
		}
		return time.Millisecond
	}
	r := runScenario(t, newSlowServer(clock, 20, 3*time.Second, slowFirst), 3*time.Second, ac602...)
	if r.Status != scenario.Passed || !strings.Contains(r.Rerun, "one window did not hold") {
		t.Fatalf("%s: %s (re-run: %q)", r.Status, r.Reason, r.Rerun)
	}
	// A fast correct server passes at once; a fast server whose replays
	// spend still fails.
	r = runScenario(t, newSlowServer(clock, 20, 3*time.Second, every(time.Millisecond)), 3*time.Second, ac602...)
	if r.Status != scenario.Passed || r.Rerun != "" {
		t.Fatalf("fast: %s: %s (re-run: %q)", r.Status, r.Reason, r.Rerun)
	}
}

// Issue 24 item 10: against a server whose Reset moves with every response
// (now + W), AC6-02 read the spread of Resets over its 81 requests as "a
// window ended during the check" and skipped, twice, so replays that spend
// went unreported. By rlspec's clock the requests lie well inside one
// window (3.2 s of RL_WINDOW=10s): the verdict is on the algorithm, and the
// moving Reset is the header clauses' (AC3-03).
func TestAC602MovingResetIsNoSkip(t *testing.T) {
	start := time.Unix(1_800_000_000, 5_000_000)
	srv := newSlowServer(&fakeTime{now: start}, 20, 10*time.Second, every(40*time.Millisecond))
	srv.sliding = true
	if r := runScenario(t, srv, 10*time.Second, ac602...); r.Status != scenario.Passed || r.Rerun != "" {
		t.Fatalf("moving Reset, correct replays: %s: %s (re-run: %q)", r.Status, r.Reason, r.Rerun)
	}
	srv = newSlowServer(&fakeTime{now: start}, 20, 10*time.Second, every(40*time.Millisecond))
	srv.sliding, srv.replaySpends = true, true
	if r := runScenario(t, srv, 10*time.Second, ac602...); r.Status != scenario.Failed || r.Rerun != "" {
		t.Fatalf("moving Reset, replays that spend: %s: %s (re-run: %q)", r.Status, r.Reason, r.Rerun)
	}
}

var ac303 = []string{
	"a fresh device bucket with 0 units left",
	"I send a ride to the bucket",
	"I wait 2 seconds inside the window",
	"I send a ride to the bucket",
	"the response status is 429",
	"Remaining is 0",
	"Reset is the same as on the first response",
}

// Issue 17 item 3: AC3-03 against a server whose Reset is now + window
// on every response, when the first request queues 1.5 s: 2 s counted from
// the first request's send leave 0.5 s between the server's decisions, both
// Resets round to neighbouring seconds, and the scenario passed. Counted
// from the first response, the samples are 2 s apart at the server and the
// moving Reset is caught.
func TestAC303MeasuresTheGapAtTheServer(t *testing.T) {
	queued := slowAt(0, 1500*time.Millisecond)
	clock := &fakeTime{now: time.Unix(1_800_000_000, 5_000_000)}
	srv := newSlowServer(clock, 3, time.Hour, queued)
	srv.sliding = true
	r := runScenario(t, srv, time.Hour, ac303...)
	if r.Status != scenario.Failed || r.Violation == nil || r.Violation.Check != "X-RateLimit-Reset does not move within a window" {
		t.Fatalf("sliding Reset: %s: %s", r.Status, r.Reason)
	}
	clock = &fakeTime{now: time.Unix(1_800_000_000, 5_000_000)}
	if r := runScenario(t, newSlowServer(clock, 3, time.Hour, queued), time.Hour, ac303...); r.Status != scenario.Passed {
		t.Fatalf("correct server: %s: %s", r.Status, r.Reason)
	}
}

// When the samples turn out closer than 2 s at the server after all (here
// a clock that jumps: each wait passes only a quarter of its time), the
// scenario is neither passed nor failed: it is run again and skipped.
func TestAC303SamplesTooCloseAreSkipped(t *testing.T) {
	clock := &fakeTime{now: time.Unix(1_800_000_000, 5_000_000), share: 0.25}
	srv := newSlowServer(clock, 3, time.Hour, every(time.Millisecond))
	srv.sliding = true
	r := runScenario(t, srv, time.Hour, ac303...)
	if r.Status != scenario.Skipped || !strings.Contains(r.Reason, "two samples 2s apart at the server inside one window did not hold") {
		t.Fatalf("%s: %s", r.Status, r.Reason)
	}
}

var ac401 = []string{
	"a fresh device bucket with 0 units left",
	"the window of the bucket has passed",
	"I send a ride to the bucket",
	"the response status is 200",
	"Remaining is the limit minus 1",
}

// A server whose clock is 1.5 s behind the harness's decides the request
// sent a second after the window's end (by the harness's clock) in the old
// window and answers 429: that is not an AC4 failure. Its Date header shows
// the window had not passed at the server, so the scenario is run again and
// skipped. A server in step passes; one that never resets still fails.
func TestAC401WindowNotPassedAtTheServerIsNoVerdict(t *testing.T) {
	start := time.Unix(1_800_000_000, 5_000_000)
	srv := newSlowServer(&fakeTime{now: start}, 3, 3*time.Second, every(time.Millisecond))
	srv.behind = 1500 * time.Millisecond
	r := runScenario(t, srv, 3*time.Second, ac401...)
	if r.Status != scenario.Skipped || !strings.Contains(r.Reason, "the window had passed at the server did not hold") {
		t.Fatalf("clock behind: %s: %s", r.Status, r.Reason)
	}
	r = runScenario(t, newSlowServer(&fakeTime{now: start}, 3, 3*time.Second, every(time.Millisecond)), 3*time.Second, ac401...)
	if r.Status != scenario.Passed {
		t.Fatalf("in step: %s: %s", r.Status, r.Reason)
	}
	srv = newSlowServer(&fakeTime{now: start}, 3, 3*time.Second, every(time.Millisecond))
	srv.noReset = true
	r = runScenario(t, srv, 3*time.Second, ac401...)
	if r.Status != scenario.Failed {
		t.Fatalf("no reset: %s: %s", r.Status, r.Reason)
	}
}

var ac102 = []string{
	"a fresh device bucket",
	"I send a ride to the bucket",
	"I send a ride to the bucket",
	"I send a ride to the bucket",
	"the response status is 200",
	"Remaining is the limit minus 3",
}

// A correct server (RL_LIMIT=20 RL_WINDOW=3s) that stalls 3.5 s on one
// request decides it in a new window: the third ride shows Remaining 18,
// not 17. Seen against a correct server behind a 20 ms proxy on a loaded
// machine (AC1-02 and AC6-01 failed once in 20 runs). The bucket's
// refill shows the window ended: the scenario is run again and its verdict
// stands; a refill sooner than a window is the target's and still fails.
func TestOneStallIsNoFalseFailure(t *testing.T) {
	stallOnce := slowAt(1, 3500*time.Millisecond)
	clock := &fakeTime{now: time.Unix(1_800_000_000, 5_000_000)}
	r := runScenario(t, newSlowServer(clock, 20, 3*time.Second, stallOnce), 3*time.Second, ac102...)
	if r.Status != scenario.Passed || !strings.Contains(r.Rerun, "one window did not hold") {
		t.Fatalf("stall: %s: %s (re-run: %q)", r.Status, r.Reason, r.Rerun)
	}
	// A server whose window is a tenth of RL_WINDOW refills too soon: FAIL.
	clock = &fakeTime{now: time.Unix(1_800_000_000, 5_000_000)}
	short := newSlowServer(clock, 20, 300*time.Millisecond, every(200*time.Millisecond))
	r = runScenario(t, short, 3*time.Second, ac102...)
	if r.Status != scenario.Failed || r.Rerun != "" {
		t.Fatalf("short window: %s: %s (re-run: %q)", r.Status, r.Reason, r.Rerun)
	}
}
