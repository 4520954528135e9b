package probe_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/probe"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// fakeClock is the probe's and the reference's time: Wait advances it.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Wait(_ context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return nil
}

// served is a reference server on a fake clock, counting the requests it
// was sent.
type served struct {
	url   string
	clock *fakeClock
	count atomic.Int64
}

// serve starts the reference with cfg's design on a fake clock that starts
// at start; its answers leave out the headers named in hide (a limiter
// that does not say when to come back).
func serve(t *testing.T, cfg fakeserver.Config, start time.Time, hide ...string) *served {
	t.Helper()
	s := &served{clock: &fakeClock{now: start}}
	cfg.Clock = s.clock
	srv, err := fakeserver.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.count.Add(1)
		srv.ServeHTTP(hiding{w, hide}, r)
	}))
	t.Cleanup(hs.Close)
	s.url = hs.URL
	return s
}

// hiding drops the headers it names before the answer is written.
type hiding struct {
	http.ResponseWriter
	hide []string
}

func (h hiding) WriteHeader(code int) {
	for _, n := range h.hide {
		h.Header().Del(n)
	}
	h.ResponseWriter.WriteHeader(code)
}

func (h hiding) Write(b []byte) (int, error) {
	for _, n := range h.hide {
		h.Header().Del(n)
	}
	return h.ResponseWriter.Write(b)
}

// probeOf runs a probe of s with budget and MAX_WAIT on s's clock.
func probeOf(t *testing.T, s *served, given profile.Name, budget int, maxWait time.Duration) (*probe.Session, error) {
	t.Helper()
	tc := service.DefaultConfig()
	tc.URL, tc.Profile = s.url, profile.FixedWindow
	if given != "" {
		tc.Profile = given
	}
	target, err := probe.NewHTTPTarget(tc, httpclient.WithClock(s.clock.Now))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(target.Close)
	return probe.Run(context.Background(), target, probe.Options{Budget: budget, MaxWait: maxWait, Clock: s.clock, Profile: given, Local: true})
}

func settings(g probe.Suggestion) map[string]string {
	m := map[string]string{}
	for _, s := range g.Settings {
		m[s.Name] = s.Value
	}
	return m
}

func base(p profile.Name, limit int, window time.Duration) fakeserver.Config {
	c := fakeserver.DefaultConfig()
	c.Profile, c.Limit, c.Window = p, limit, window
	return c
}

// t0 is a start 3.25 s into a 10 s grid window.
var t0 = time.Unix(1_800_000_003, 250_000_000)

// TestSuggestionsPerDesignAndDialect: against the reference in each design
// and several dialects, the probe suggests the reference's own settings.
func TestSuggestionsPerDesignAndDialect(t *testing.T) {
	t.Parallel()
	tb := func(b int, r float64, a dialect.Settings, body fakeserver.RefusalBody) fakeserver.Config {
		c := base(profile.TokenBucket, 500, time.Hour)
		c.Burst, c.Rate, c.Answer, c.RefusalBody = b, r, a, body
		return c
	}
	with := func(c fakeserver.Config, a dialect.Settings, align profile.Align) fakeserver.Config {
		c.Answer, c.Align = a, align
		return c
	}
	for name, tc := range map[string]struct {
		cfg   fakeserver.Config
		given profile.Name
		want  map[string]string
		start time.Time // zero: t0
		hide  []string  // headers the answers leave out
	}{
		"fixed-window epoch, the first key at a window's start": {
			cfg:   with(base(profile.FixedWindow, 4, 10*time.Second), dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetUnix}, profile.AlignEpoch),
			start: time.Unix(1_800_000_000, 300_000_000),
			want:  map[string]string{"PROFILE": "fixed-window", "RL_LIMIT": "4", "RL_WINDOW": "10s", "WINDOW_ALIGN": "epoch"},
		},
		"fixed-window epoch, ratelimit-fields": {
			cfg: with(base(profile.FixedWindow, 5, 10*time.Second), dialect.Settings{Dialect: dialect.Fields}, profile.AlignEpoch),
			want: map[string]string{"PROFILE": "fixed-window", "RL_LIMIT": "5", "RL_WINDOW": "10s", "WINDOW_ALIGN": "epoch",
				"DIALECT": "ratelimit-fields", "LIMITED_STATUS": "429", "LIMITED_BODY": "/error/code=RATE_LIMITED"},
		},
		"fixed-window epoch, x-ratelimit unix": {
			cfg:  with(base(profile.FixedWindow, 4, 10*time.Second), dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetUnix}, profile.AlignEpoch),
			want: map[string]string{"PROFILE": "fixed-window", "RL_LIMIT": "4", "RL_WINDOW": "10s", "WINDOW_ALIGN": "epoch", "DIALECT": "x-ratelimit", "RESET_FORMAT": "unix"},
		},
		"fixed-window first-request, x-ratelimit delta, 503": {
			cfg:  with(base(profile.FixedWindow, 3, 10*time.Second), dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetDelta, LimitedStatus: 503}, profile.AlignFirstRequest),
			want: map[string]string{"PROFILE": "fixed-window", "RL_LIMIT": "3", "RL_WINDOW": "10s", "WINDOW_ALIGN": "first-request", "RESET_FORMAT": "delta", "LIMITED_STATUS": "503"},
		},
		"sliding-log, x-ratelimit http-date, prefix": {
			cfg:  with(base(profile.SlidingLog, 4, 10*time.Second), dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetHTTPDate, Prefix: "X-Rate-Limit-"}, ""),
			want: map[string]string{"PROFILE": "sliding-log", "RL_LIMIT": "4", "RL_WINDOW": "10s", "RESET_FORMAT": "http-date", "HEADER_PREFIX": "X-Rate-Limit-"},
		},
		"sliding-log, ratelimit-dict": {
			cfg:  with(base(profile.SlidingLog, 6, 20*time.Second), dialect.Settings{Dialect: dialect.Dict}, ""),
			want: map[string]string{"PROFILE": "sliding-log", "RL_LIMIT": "6", "RL_WINDOW": "20s", "DIALECT": "ratelimit-dict"},
		},
		"token-bucket, ietf": {
			cfg:  tb(5, 2, dialect.Settings{Dialect: dialect.IETF}, ""),
			want: map[string]string{"PROFILE": "token-bucket", "RL_BURST": "5", "RL_RATE": "2", "DIALECT": "ietf"},
		},
		"token-bucket, status, text body": {
			cfg:  tb(4, 0.5, dialect.Settings{Dialect: dialect.Status}, fakeserver.RefusalText),
			want: map[string]string{"PROFILE": "token-bucket", "RL_BURST": "4", "RL_RATE": "0.5", "DIALECT": "status", "LIMITED_BODY": "text:Too Many Requests"},
		},
		"token-bucket, status, no Retry-After (tried once a second)": {
			cfg:  tb(5, 2, dialect.Settings{Dialect: dialect.Status}, ""),
			hide: []string{"Retry-After"},
			want: map[string]string{"PROFILE": "token-bucket", "RL_BURST": "5", "RL_RATE": "2", "DIALECT": "status"},
		},
		"fixed-window first-request, status, no Retry-After (tried once a second)": {
			cfg:  with(base(profile.FixedWindow, 4, 6*time.Second), dialect.Settings{Dialect: dialect.Status}, profile.AlignFirstRequest),
			hide: []string{"Retry-After"},
			want: map[string]string{"PROFILE": "fixed-window", "RL_LIMIT": "4", "RL_WINDOW": "6s", "DIALECT": "status"},
		},
		"prd given": {
			cfg: base(profile.PRD, 5, 10*time.Second), given: profile.PRD,
			want: map[string]string{"PROFILE": "prd", "RL_LIMIT": "5", "RL_WINDOW": "10s"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start := tc.start
			if start.IsZero() {
				start = t0
			}
			s := serve(t, tc.cfg, start, tc.hide...)
			sess, err := probeOf(t, s, tc.given, 40, 30*time.Second)
			if err != nil {
				t.Fatal(err)
			}
			g := probe.Suggest(sess, tc.given)
			got := settings(g)
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s=%q, want %q", k, got[k], v)
				}
			}
			var out bytes.Buffer
			probe.Report{Endpoint: "GET " + s.url, Local: true, Session: sess, Suggest: g}.Write(&out)
			if t.Failed() {
				t.Log(out.String())
			}
			if n := s.count.Load(); n != int64(sess.Sent()) || n > 40 {
				t.Errorf("the server counted %d requests, the session %d, the budget 40", n, sess.Sent())
			}
		})
	}
}

// TestBudgetIsNeverExceeded: whatever the budget, the server counts at most
// that many requests, and the probe says what the budget left undetermined.
func TestBudgetIsNeverExceeded(t *testing.T) {
	t.Parallel()
	for _, budget := range []int{3, 4, 5, 7, 9, 12} {
		for _, c := range []fakeserver.Config{base(profile.FixedWindow, 6, 10*time.Second), base(profile.SlidingLog, 3, 10*time.Second)} {
			s := serve(t, c, t0)
			sess, err := probeOf(t, s, "", budget, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if n := s.count.Load(); n > int64(budget) || n != int64(sess.Sent()) {
				t.Errorf("budget %d, %s: the server counted %d requests, the session %d", budget, c.Profile, n, sess.Sent())
			}
			if g := probe.Suggest(sess, ""); budget < 6 && len(g.Unknown) == 0 {
				t.Errorf("budget %d, %s: nothing said to be undetermined", budget, c.Profile)
			}
		}
	}
	if err := probe.CheckBudget(2); err == nil {
		t.Error("a budget of 2 was accepted")
	}
}

// TestKeyedByAddress: a target that keys clients by address only gets
// KEY=ip.
func TestKeyedByAddress(t *testing.T) {
	t.Parallel()
	c := base(profile.FixedWindow, 3, 10*time.Second)
	c.Wrap.Keyer = func(fakeserver.Keyer) fakeserver.Keyer { return fakeserver.AddressKeyer{} }
	s := serve(t, c, t0)
	sess, err := probeOf(t, s, "", 20, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := probe.Suggest(sess, "")
	if got := settings(g)["KEY"]; got != "ip" {
		t.Errorf("KEY=%q, want ip; findings %+v", got, sess.F)
	}
}

// TestWithoutWaitingSaysHowLong: with MAX_WAIT 0 the probe waits for
// nothing and says how long telling the design would take.
func TestWithoutWaitingSaysHowLong(t *testing.T) {
	t.Parallel()
	s := serve(t, base(profile.SlidingLog, 4, 30*time.Second), t0)
	sess, err := probeOf(t, s, "", 20, 0)
	if err != nil {
		t.Fatal(err)
	}
	g := probe.Suggest(sess, "")
	all := strings.Join(g.Unknown, "\n")
	for _, w := range []string{"more than MAX_WAIT=0s", "sliding log", "31s of waiting"} {
		if !strings.Contains(all, w) {
			t.Errorf("the undetermined lack %q:\n%s", w, all)
		}
	}
	if !g.Guessed {
		t.Error("the profile is not marked as guessed")
	}
}

// TestFirstAnswerNotAllowed: a 404 is a setup error naming the settings to
// check, after one request.
func TestFirstAnswerNotAllowed(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		http.NotFound(w, r)
	}))
	defer hs.Close()
	tc := service.DefaultConfig()
	tc.URL, tc.Profile = hs.URL, profile.SlidingLog
	target, err := probe.NewHTTPTarget(tc)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	_, err = probe.Run(context.Background(), target, probe.Options{Budget: 10, Local: true})
	var se *probe.SetupError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "HTTP 404") || n.Load() != 1 {
		t.Fatalf("err %v after %d requests, want a SetupError after 1", err, n.Load())
	}
}

// greedy sends on fresh keys until the session refuses.
type greedy struct{ err *error }

func (g greedy) Run(ctx context.Context, s *probe.Session) error {
	for i := 0; ; i++ {
		if _, err := s.Send(ctx, string(rune('a'+i%26)), i%2); err != nil {
			*g.err = err
			return nil
		}
	}
}

// TestSessionRefusesPastTheBudget: a strategy that never stops gets
// ErrBudget after exactly the budget, and the server sees no more.
func TestSessionRefusesPastTheBudget(t *testing.T) {
	t.Parallel()
	s := serve(t, base(profile.FixedWindow, 1000, time.Hour), t0)
	tc := service.DefaultConfig()
	tc.URL, tc.Profile = s.url, profile.FixedWindow
	target, err := probe.NewHTTPTarget(tc)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	var last error
	sess, err := probe.Run(context.Background(), target, probe.Options{Budget: 9, Clock: s.clock, Strategies: []probe.Strategy{greedy{&last}}})
	if err != nil || !errors.Is(last, probe.ErrBudget) || s.count.Load() != 9 || sess.Sent() != 9 {
		t.Fatalf("err %v, last %v, server counted %d, want ErrBudget after 9", err, last, s.count.Load())
	}
}

// TestPRDOnAnotherAPISaysSo: PROFILE=prd against an API that refuses the
// PRD's ride says to leave PROFILE unset.
func TestPRDOnAnotherAPISaysSo(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "use GET", http.StatusMethodNotAllowed)
	}))
	defer hs.Close()
	tc := service.DefaultConfig()
	tc.URL, tc.Path = hs.URL, "/api/items"
	target, err := probe.NewHTTPTarget(tc)
	if err != nil {
		t.Fatal(err)
	}
	defer target.Close()
	_, err = probe.Run(context.Background(), target, probe.Options{Budget: 5, Profile: profile.PRD, Local: true})
	if err == nil || !strings.Contains(err.Error(), "HTTP 405") || !strings.Contains(err.Error(), "leave PROFILE unset") {
		t.Fatalf("%v, want the 405 and PROFILE named", err)
	}
}

// TestDelayedAnswersAreNamed: allowed answers held for seconds (a shaping
// limiter) are said to be undetermined, not taken for a design.
func TestDelayedAnswersAreNamed(t *testing.T) {
	t.Parallel()
	s := serve(t, base(profile.FixedWindow, 3, 10*time.Second), t0)
	slow := &slowTarget{clock: s.clock, delay: 2 * time.Second}
	tc := service.DefaultConfig()
	tc.URL, tc.Profile = s.url, profile.FixedWindow
	var err error
	if slow.t, err = probe.NewHTTPTarget(tc, httpclient.WithClock(s.clock.Now)); err != nil {
		t.Fatal(err)
	}
	defer slow.t.Close()
	sess, err := probe.Run(context.Background(), slow, probe.Options{Budget: 10, Clock: s.clock, Local: true})
	if err != nil {
		t.Fatal(err)
	}
	if all := strings.Join(probe.Suggest(sess, "").Unknown, "\n"); !strings.Contains(all, "an allowed answer took 2s") {
		t.Errorf("the undetermined do not name the delay:\n%s", all)
	}
}

// slowTarget moves the fake clock on while each request is answered.
type slowTarget struct {
	t     *probe.HTTPTarget
	clock *fakeClock
	delay time.Duration
}

func (s *slowTarget) Send(ctx context.Context, key string, client int) *httpclient.Exchange {
	ex := s.t.Send(ctx, key, client)
	_ = s.clock.Wait(ctx, s.delay)
	ex.Received = s.clock.Now()
	return ex
}
