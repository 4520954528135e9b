package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	hdr "github.com/HdrHistogram/hdrhistogram-go"
)

// Defaults of an Attacker.
const (
	DefaultRate            = 1000
	DefaultDuration        = 30 * time.Second
	DefaultWarmup          = 5 * time.Second
	DefaultOpenConnections = 16
	DefaultBuckets         = 1000
	DefaultInterval        = time.Second
	DefaultTimeout         = 5 * time.Second
	DefaultBodyRefresh     = 30 * time.Second
	maxErrorSamples        = 5
	jobQueue               = 1 << 16
)

// Attacker sends load to one target. Build it with NewAttacker and options;
// an Attacker runs one attack at a time.
type Attacker struct {
	dialer      Dialer
	render      func() ([][]byte, error)
	clock       Clock
	pacer       Pacer // nil: closed loop
	connections int
	requests    uint64 // closed loop: stop after this many requests; 0 = no limit
	duration    time.Duration
	warmup      time.Duration
	interval    time.Duration
	timeout     time.Duration
	bodyRefresh time.Duration
	progress    func(Progress)
	hlog        io.Writer
	meta        Meta
}

// Option configures an Attacker.
type Option func(*Attacker)

// WithRate makes the attack open loop at rate requests per second (the
// default, at DefaultRate). A rate of 0 makes it closed loop: every
// connection sends its next request as soon as the previous one is answered.
func WithRate(rate float64) Option {
	return func(a *Attacker) {
		if rate == 0 {
			a.pacer = nil
			return
		}
		a.pacer = ConstantPacer{Rate: rate}
	}
}

// WithPacer sets the open-loop schedule.
func WithPacer(p Pacer) Option { return func(a *Attacker) { a.pacer = p } }

// WithConnections sets the number of connections (workers). Open loop
// defaults to DefaultOpenConnections; closed loop needs it set.
func WithConnections(n int) Option { return func(a *Attacker) { a.connections = n } }

// WithRequests makes a closed-loop attack stop after n requests (warm-up
// included) or at the end of its duration, whichever comes first; 0 (the
// default) sends until the end. Open loop ignores it.
func WithRequests(n uint64) Option { return func(a *Attacker) { a.requests = n } }

// WithDuration sets the measured duration.
func WithDuration(d time.Duration) Option { return func(a *Attacker) { a.duration = d } }

// WithWarmup sets the warm-up before measuring; its requests are excluded
// from every figure.
func WithWarmup(d time.Duration) Option { return func(a *Attacker) { a.warmup = d } }

// WithClock sets the clock (default SystemClock).
func WithClock(c Clock) Option { return func(a *Attacker) { a.clock = c } }

// WithInterval sets the length of the reporting intervals (progress, the
// interval log, the latency-over-time plot).
func WithInterval(d time.Duration) Option { return func(a *Attacker) { a.interval = d } }

// WithTimeout bounds each request (default DefaultTimeout).
func WithTimeout(d time.Duration) Option { return func(a *Attacker) { a.timeout = d } }

// WithBodyRefresh sets how often the pre-rendered request pool is rendered
// again (template functions such as now move on); 0 never.
func WithBodyRefresh(d time.Duration) Option { return func(a *Attacker) { a.bodyRefresh = d } }

// WithProgress calls f once per interval while the attack runs.
func WithProgress(f func(Progress)) Option { return func(a *Attacker) { a.progress = f } }

// WithHlog writes an HdrHistogram interval log to w while the attack runs.
func WithHlog(w io.Writer) Option { return func(a *Attacker) { a.hlog = w } }

// WithMeta labels the result (target, buckets) for reports.
func WithMeta(m Meta) Option { return func(a *Attacker) { a.meta = m } }

// NewAttacker returns an attacker that dials connections with d and sends
// the requests render returns (request n uses element n mod len).
func NewAttacker(d Dialer, render func() ([][]byte, error), opts ...Option) (*Attacker, error) {
	a := &Attacker{
		dialer:      d,
		render:      render,
		clock:       SystemClock{},
		pacer:       ConstantPacer{Rate: DefaultRate},
		duration:    DefaultDuration,
		warmup:      DefaultWarmup,
		interval:    DefaultInterval,
		timeout:     DefaultTimeout,
		bodyRefresh: DefaultBodyRefresh,
	}
	for _, o := range opts {
		o(a)
	}
	switch {
	case d == nil || render == nil:
		return nil, errors.New("an attacker needs a dialer and requests")
	case a.duration <= 0:
		return nil, fmt.Errorf("DURATION=%s must be positive", a.duration)
	case a.warmup < 0:
		return nil, fmt.Errorf("WARMUP=%s must not be negative", a.warmup)
	case a.interval <= 0:
		return nil, fmt.Errorf("interval %s must be positive", a.interval)
	case a.connections < 0:
		return nil, fmt.Errorf("CONNECTIONS=%d must not be negative", a.connections)
	case a.pacer == nil && a.connections == 0:
		return nil, errors.New("RATE=0 (closed loop) needs CONNECTIONS of at least 1")
	}
	if cp, ok := a.pacer.(ConstantPacer); ok {
		if _, err := NewConstantPacer(cp.Rate); err != nil {
			return nil, fmt.Errorf("RATE: %w", err)
		}
	}
	if a.connections == 0 {
		a.connections = DefaultOpenConnections
	}
	if a.connections > 100000 {
		return nil, fmt.Errorf("CONNECTIONS=%d is more than 100000", a.connections)
	}
	a.meta.Connections = a.connections
	a.meta.Duration = a.duration
	a.meta.Warmup = a.warmup
	if cp, ok := a.pacer.(ConstantPacer); ok {
		a.meta.Mode, a.meta.Rate = "open", cp.Rate
	} else if a.pacer != nil {
		a.meta.Mode = "open"
	} else {
		a.meta.Mode = "closed"
	}
	return a, nil
}

// Meta describes an attack for its report.
type Meta struct {
	Target      string        `json:"target"`
	Mode        string        `json:"mode"` // open or closed
	Rate        float64       `json:"rate"` // requested rate, open loop
	Connections int           `json:"connections"`
	Buckets     int           `json:"buckets"`
	Duration    time.Duration `json:"-"`
	Warmup      time.Duration `json:"-"`
}

// Progress is what an attack reports once per interval.
type Progress struct {
	Elapsed  time.Duration // since the start, warm-up included
	Warmup   bool          // still warming up
	Rate     float64       // requests completed per second in the last interval
	P95      float64       // corrected p95 so far, ms
	Requests int64         // measured so far
	Errors   int64         // measured requests neither 200 nor 429
}

// Interval summarises one reporting interval.
type Interval struct {
	Start          time.Time `json:"start"`
	End            time.Time `json:"end"`
	Requests       int64     `json:"requests"`
	Errors         int64     `json:"errors"`
	RateLimited    int64     `json:"rate_limited"`
	P50            float64   `json:"p50_ms"`
	P95            float64   `json:"p95_ms"`
	P99            float64   `json:"p99_ms"`
	Max            float64   `json:"max_ms"`
	UncorrectedP99 float64   `json:"uncorrected_p99_ms"`
}

func summarise(h *Histograms, start, end time.Time) Interval {
	c := PercentilesOf(h.Corrected)
	s := StatusCountsOf(h.Status)
	return Interval{
		Start: start, End: end, Requests: h.Requests(), Errors: s.Errors(), RateLimited: s.RateLimited,
		P50: c.P50, P95: c.P95, P99: c.P99, Max: c.Max,
		UncorrectedP99: PercentilesOf(h.Uncorrected).P99,
	}
}

// Result is a finished (or interrupted) attack: the merged histograms, the
// per-interval summaries and a few transport error messages.
type Result struct {
	Meta       Meta
	Start, End time.Time // the measured window
	// Late counts the measured requests answered after End: the target fell
	// behind the schedule (0 for merged logs, which cannot tell).
	Late        int64
	Totals      *Histograms
	Intervals   []Interval
	ErrorSample []string
	Interrupted bool
}

// recorder is one worker's histograms. The worker records under mu; the
// collector takes the interval's counts under the same lock.
type recorder struct {
	mu     sync.Mutex
	h      *Histograms
	errors []string
	// cutoff is the end of the measured window, set before any request is
	// sent; late counts the responses recorded after it.
	cutoff time.Time
	late   int64
}

func newRecorder() *recorder { return &recorder{h: NewHistograms()} }

func (r *recorder) record(intended, sent, received time.Time, status int, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.cutoff.IsZero() && received.After(r.cutoff) {
		r.late++
	}
	recordLatency(r.h.Corrected, received.Sub(intended))
	recordLatency(r.h.Uncorrected, received.Sub(sent))
	if err != nil {
		recordStatus(r.h.Status, statusError)
		if len(r.errors) < maxErrorSamples {
			r.errors = append(r.errors, err.Error())
		}
	} else {
		recordStatus(r.h.Status, status)
	}
}

func (r *recorder) recordLag(d time.Duration) {
	r.mu.Lock()
	recordLatency(r.h.Lag, d)
	r.mu.Unlock()
}

// drain moves r's counts into into and empties r; late is how many of
// them ended after the cutoff.
func (r *recorder) drain(into *Histograms) (errs []string, late int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	into.Merge(r.h)
	r.h.Reset()
	errs, late = r.errors, r.late
	r.errors, r.late = nil, 0
	return errs, late
}

// collector merges the worker recorders once per interval.
type collector struct {
	recorders []*recorder
	res       *Result
	log       *hdr.HistogramLogWriter
	logErr    error
	scratch   *Histograms
}

func (c *collector) collect(start, end time.Time) Interval {
	c.scratch.Reset()
	for _, r := range c.recorders {
		errs, late := r.drain(c.scratch)
		c.res.Late += late
		for _, e := range errs {
			if len(c.res.ErrorSample) < maxErrorSamples {
				c.res.ErrorSample = append(c.res.ErrorSample, e)
			}
		}
	}
	c.res.Totals.Merge(c.scratch)
	iv := summarise(c.scratch, start, end)
	if c.scratch.Requests() == 0 && c.scratch.Lag.TotalCount() == 0 {
		return iv
	}
	c.res.Intervals = append(c.res.Intervals, iv)
	if c.log != nil && c.logErr == nil {
		c.logErr = writeHlogInterval(c.log, c.scratch, start, end)
	}
	return iv
}

type job struct {
	n  uint64
	at time.Time
}

// Attack runs the attack until the measured duration has passed (or ctx
// ends) and every request sent has been answered or timed out. It fails
// before sending anything when the requests cannot be rendered or the
// target cannot be reached.
func (a *Attacker) Attack(ctx context.Context) (*Result, error) {
	reqs, err := a.render()
	if err != nil {
		return nil, fmt.Errorf("render requests: %w", err)
	}
	if len(reqs) == 0 {
		return nil, errors.New("render requests: none")
	}
	var pool atomic.Pointer[[][]byte]
	pool.Store(&reqs)

	first, err := a.dialer.Dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("target unreachable: %w", err)
	}

	res := &Result{Meta: a.meta, Totals: NewHistograms()}
	c := &collector{res: res, scratch: NewHistograms()}
	if a.hlog != nil {
		c.log = hdr.NewHistogramLogWriter(a.hlog)
	}
	recs := make([]*recorder, a.connections) // one worker per connection
	for i := range recs {
		recs[i] = newRecorder()
	}
	lagRec := newRecorder()
	c.recorders = append(recs, lagRec)

	start := a.clock.Now()
	measure := start.Add(a.warmup)
	end := measure.Add(a.duration)
	res.Start, res.End = measure, end
	for _, r := range recs {
		r.cutoff = end
	}
	if c.log != nil {
		c.logErr = writeHlogHeader(c.log, a.meta, measure)
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup

	if a.bodyRefresh > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(a.bodyRefresh)
			defer t.Stop()
			for {
				select {
				case <-runCtx.Done():
					return
				case <-t.C:
					if fresh, err := a.render(); err == nil && len(fresh) > 0 {
						pool.Store(&fresh)
					}
				}
			}
		}()
	}

	var workers sync.WaitGroup
	var jobs chan job
	if a.pacer != nil {
		jobs = make(chan job, jobQueue)
		workers.Add(1)
		go func() {
			defer workers.Done()
			defer close(jobs)
			a.schedule(runCtx, start, measure, end, lagRec, jobs)
		}()
	}
	var counter atomic.Uint64
	for i := range a.connections {
		var conn Conn
		if i == 0 {
			conn = first
		}
		workers.Add(1)
		go func() {
			defer workers.Done()
			w := worker{a: a, ctx: runCtx, conn: conn, rec: recs[i], pool: &pool, measure: measure}
			if jobs != nil {
				w.open(jobs)
			} else {
				w.closed(&counter, a.requests, end)
			}
		}()
	}
	done := make(chan struct{})
	go func() { workers.Wait(); close(done) }()

	// Collect once per interval from the start of measurement.
	ticker := time.NewTicker(a.interval)
	defer ticker.Stop()
	last := measure
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-ctx.Done():
			res.Interrupted = true
			cancel()
			<-done
			running = false
		case <-ticker.C:
			now := a.clock.Now()
			if now.Before(measure) {
				if a.progress != nil {
					a.progress(Progress{Elapsed: now.Sub(start), Warmup: true})
				}
				continue
			}
			if now.Sub(last) < a.interval/2 {
				continue // the first tick right at the end of warm-up
			}
			iv := c.collect(last, now)
			if a.progress != nil {
				tot := StatusCountsOf(res.Totals.Status)
				a.progress(Progress{
					Elapsed: now.Sub(start), Rate: float64(iv.Requests) / now.Sub(last).Seconds(),
					P95: PercentilesOf(res.Totals.Corrected).P95, Requests: res.Totals.Requests(), Errors: tot.Errors(),
				})
			}
			last = now
		}
	}
	cancel()
	wg.Wait()
	now := a.clock.Now()
	if now.Before(last) {
		now = last
	}
	c.collect(last, now)
	if c.logErr != nil {
		return res, fmt.Errorf("write interval log: %w", c.logErr)
	}
	return res, nil
}

// schedule sends job n at its intended time start+At(n) until end, and
// records how late it woke up for each measured job. It runs on a locked
// thread so the clock's precise sleep does not stall other goroutines.
func (a *Attacker) schedule(ctx context.Context, start, measure, end time.Time, lag *recorder, jobs chan<- job) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for n := uint64(0); ; n++ {
		at := start.Add(a.pacer.At(n))
		if !at.Before(end) {
			return
		}
		if err := a.clock.SleepUntil(ctx, at); err != nil {
			return
		}
		if !at.Before(measure) {
			lag.recordLag(a.clock.Now().Sub(at))
		}
		select {
		case jobs <- job{n: n, at: at}:
		case <-ctx.Done():
			return
		}
	}
}

type worker struct {
	a       *Attacker
	ctx     context.Context
	conn    Conn
	rec     *recorder
	pool    *atomic.Pointer[[][]byte]
	measure time.Time
}

func (w *worker) open(jobs <-chan job) {
	defer w.close()
	for j := range jobs {
		if w.ctx.Err() != nil {
			continue // drain without sending
		}
		w.send(j.n, j.at, w.a.clock.Now())
	}
}

func (w *worker) closed(counter *atomic.Uint64, limit uint64, end time.Time) {
	defer w.close()
	now := w.a.clock.Now()
	for w.ctx.Err() == nil {
		if !now.Before(end) {
			return
		}
		n := counter.Add(1) - 1
		if limit > 0 && n >= limit {
			return
		}
		now = w.send(n, now, now) // the next request starts when this one ends
	}
}

// send sends request n, records its outcome and returns when it ended.
func (w *worker) send(n uint64, intended, sent time.Time) time.Time {
	reqs := *w.pool.Load()
	clock := w.a.clock
	var status int
	var err error
	if s, ok := w.conn.(spentConn); ok && s.Spent() {
		w.close() // the server closed it after the last response, as it said
	}
	if w.conn == nil {
		w.conn, err = w.a.dialer.Dial(w.ctx)
	}
	if err == nil {
		status, err = w.conn.RoundTrip(reqs[n%uint64(len(reqs))])
		if err != nil {
			w.close()
		}
	}
	received := clock.Now()
	if !intended.Before(w.measure) {
		w.rec.record(intended, sent, received, status, err)
	}
	return received
}

// spentConn is a connection that knows it cannot carry another request
// because the server announced it would close it (Connection: close): the
// worker dials a new one instead of counting a transport error.
type spentConn interface{ Spent() bool }

var _ spentConn = (*httpConn)(nil)

func (w *worker) close() {
	if w.conn != nil {
		_ = w.conn.Close()
		w.conn = nil
	}
}
