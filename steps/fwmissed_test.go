package steps

import (
	"cmp"
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// fwFake is a fixed-window limiter keyed by X-User-ID on a fake clock, one
// request at a time, the n-th taking delay(n): the correct model m, or with
// grid a window that ended moves on by whole windows (a key grid), or with
// movesOnRefusal a refusal that ends the window W later.
type fwFake struct {
	clock          *fakeTime
	m              model.Model
	limit          int
	window         time.Duration
	delay          func(n int) time.Duration
	grid           bool
	movesOnRefusal bool
	refusal        int // the refusal's status; 0: 429
	// ticker, when set, is the phase of a once-a-second ticker whose whole
	// seconds are the server's clock (Fiber's utils.Timestamp): it decides
	// at floor(t − ticker), up to 2 s behind.
	ticker time.Duration

	mu sync.Mutex
	n  int
	st map[string]model.State
}

func newFWFake(clock *fakeTime, m model.Model, delay func(int) time.Duration) *fwFake {
	return &fwFake{clock: clock, m: m, limit: 5, window: 3 * time.Second, delay: delay, st: map[string]model.State{}}
}

func (f *fwFake) Do(_ context.Context, r httpclient.Request) *httpclient.Exchange {
	ex := &httpclient.Exchange{Method: http.MethodGet, Header: r.Header, Sent: f.clock.Now()}
	f.mu.Lock()
	defer f.mu.Unlock()
	ex.Received = f.clock.advance(f.delay(f.n))
	f.n++
	key := r.Header.Get("X-User-ID")
	now := ex.Received
	if f.ticker > 0 {
		now = time.Unix(now.Add(-f.ticker).Unix(), 0)
	}
	st, t, w := f.st[key], now.Unix(), int64(f.window/time.Second)
	if f.grid && st.Found && st.Reset <= t {
		st = model.State{Found: true, Remaining: f.limit, Reset: st.Reset + ((t-st.Reset)/w+1)*w}
	}
	var d model.Decision
	if f.movesOnRefusal && st.Found && st.Reset > t && st.Remaining < 1 {
		st.Reset = t + w
		f.st[key], d = st, model.Decision{Limit: f.limit, Reset: st.Reset, RetryAfter: w}
	} else {
		var next model.State
		if next, d = f.m.Step(st, model.Request{Cost: 1}, now); d.Write {
			f.st[key] = next
		}
	}
	ex.Status = http.StatusOK
	if !d.Allowed {
		ex.Status = cmp.Or(f.refusal, http.StatusTooManyRequests)
	}
	ex.RespHeader = http.Header{}
	ex.RespHeader.Set(dialect.HeaderLimit, strconv.Itoa(d.Limit))
	ex.RespHeader.Set(dialect.HeaderRemaining, strconv.Itoa(d.Remaining))
	ex.RespHeader.Set(dialect.HeaderReset, strconv.FormatInt(d.Reset, 10))
	return ex
}

func fwConfig(align profile.Align) service.Config {
	cfg := service.DefaultConfig().ForProfile(profile.FixedWindow)
	cfg.Limit, cfg.Window, cfg.WindowAlign = 5, 3*time.Second, align
	return cfg
}

var fw202 = []string{
	"a fresh key",
	"the key idles after its first request until 400 ms before a later multiple of W",
	"N requests are sent with the key at once",
	"that multiple of W after the key's first request passes",
	"N+1 requests are sent with the key concurrently",
	"no span of length W held more allowed requests than the boundary bound",
}

// Issue 24 item 14: FW-2-02 passes windows opened by the first request and
// epoch windows, and fails a key grid served as first-request (2N within
// a second, bound 2N − 1). A stall before the traffic after the boundary
// stretches it past W − 1 s, where a grid's 2N would not be certain: that
// run is no verdict (the grid passes the bound there), so it is run again,
// and skipped when it stalls again — never passed.
func TestFW202TellsAFirstRequestWindowFromAKeyGrid(t *testing.T) {
	start := time.Unix(1_800_000_000, 300_000_000)
	fast := every(2 * time.Millisecond)
	w := 3 * time.Second
	for _, c := range []struct {
		name  string
		align profile.Align
		srv   func(*fakeTime) *fwFake
		want  scenario.Status
	}{
		{"first-request", profile.AlignFirstRequest, func(c *fakeTime) *fwFake { return newFWFake(c, model.PRD{Limit: 5, Window: w}, fast) }, scenario.Passed},
		{"epoch", profile.AlignEpoch, func(c *fakeTime) *fwFake { return newFWFake(c, model.Epoch{Limit: 5, Window: w}, fast) }, scenario.Passed},
		{"key grid", profile.AlignFirstRequest, func(c *fakeTime) *fwFake {
			f := newFWFake(c, model.PRD{Limit: 5, Window: w}, fast)
			f.grid = true
			return f
		}, scenario.Failed},
	} {
		clock := &fakeTime{now: start}
		r := runScenarioOn(t, fwConfig(c.align), clock, anyAddress(c.srv(clock).Do), fw202...)
		if r.Status != c.want || r.Rerun != "" {
			t.Errorf("%s: %s: %s (re-run %q), want %s", c.name, r.Status, r.Reason, r.Rerun, c.want)
		}
	}
	// Each run sends 12 requests; the 7th of each (the first after the
	// boundary) stalls 2 s.
	clock := &fakeTime{now: start}
	f := newFWFake(clock, model.PRD{Limit: 5, Window: w}, func(n int) time.Duration {
		if n%12 == 6 {
			return 2 * time.Second
		}
		return 2 * time.Millisecond
	})
	f.grid = true
	r := runScenarioOn(t, fwConfig(profile.AlignFirstRequest), clock, anyAddress(f.Do), fw202...)
	if r.Status != scenario.Skipped || !strings.Contains(r.Reason, "within one span of W did not hold") {
		t.Fatalf("stalled key grid: %s: %s", r.Status, r.Reason)
	}
}

var fw303 = []string{
	"a fresh key",
	"the key's window is 1200 ms old",
	"the key spends the rest of its window at once",
	"the key retries every 200 ms while refused, in the last 2 s before its window ends",
	"the window ends",
	"N+1 requests are sent with the key one after another",
	"exactly N of them were allowed and the rest refused with 429",
}

// Issue 24 item 8: FW-3-03 passes correct windows, both alignments, and
// fails a window that a refusal moves (a retrying client never gets its
// next window).
func TestFW303RetryingClientGetsItsNextWindow(t *testing.T) {
	w := 3 * time.Second
	for _, align := range []profile.Align{profile.AlignEpoch, profile.AlignFirstRequest} {
		var m model.Model = model.PRD{Limit: 5, Window: w}
		if align == profile.AlignEpoch {
			m = model.Epoch{Limit: 5, Window: w}
		}
		for _, moves := range []bool{false, true} {
			clock := &fakeTime{now: time.Unix(1_800_000_000, 300_000_000)}
			f := newFWFake(clock, m, every(2*time.Millisecond))
			f.movesOnRefusal = moves
			r := runScenarioOn(t, fwConfig(align), clock, anyAddress(f.Do), fw303...)
			want := scenario.Passed
			if moves {
				want = scenario.Failed
			}
			if r.Status != want || r.Rerun != "" {
				t.Errorf("%s, refusal moves the window %v: %s: %s (re-run %q), want %s", align, moves, r.Status, r.Reason, r.Rerun, want)
			}
		}
	}
	// A correct window refusing with LIMITED_STATUS=503 passes too.
	clock := &fakeTime{now: time.Unix(1_800_000_000, 300_000_000)}
	f := newFWFake(clock, model.Epoch{Limit: 5, Window: w}, every(2*time.Millisecond))
	f.refusal = http.StatusServiceUnavailable
	cfg := fwConfig(profile.AlignEpoch)
	cfg.LimitedStatus = http.StatusServiceUnavailable
	stamped := func(ctx context.Context, r httpclient.Request) *httpclient.Exchange {
		ex := f.Do(ctx, r)
		ex.Answer = cfg.Answer() // as the client stamps what it reads answers as
		return ex
	}
	if r := runScenarioOn(t, cfg, clock, anyAddress(stamped), fw303...); r.Status != scenario.Passed {
		t.Errorf("LIMITED_STATUS=503: %s: %s", r.Status, r.Reason)
	}
}

// FW-3-03 on a server so slow that the spends leave no time to retry in
// before the window ends: the retries' time assumption broke, so the
// scenario is run again and then skipped — never a verdict on it.
func TestFW303NoTimeToRetryIsNoVerdict(t *testing.T) {
	clock := &fakeTime{now: time.Unix(1_800_000_000, 300_000_000)}
	f := newFWFake(clock, model.Epoch{Limit: 5, Window: 3 * time.Second}, every(300*time.Millisecond))
	r := runScenarioOn(t, fwConfig(profile.AlignEpoch), clock, anyAddress(f.Do), fw303...)
	if r.Status != scenario.Skipped || !strings.Contains(r.Reason, "time left in the window to retry in") || r.Rerun == "" {
		t.Fatalf("slow server: %s: %s (re-run %q), want skipped after a re-run for want of time to retry in", r.Status, r.Reason, r.Rerun)
	}
}
