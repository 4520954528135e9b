package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"
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
	startAt     time.Time // zero: start at once
	queueModel  Queue     // nil: no queue modelled (WithQueue)
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

// WithStartAt puts the schedule on an absolute start instant: the attack
// waits for t (warm-up begins there) and request n is due at t+At(n) even
// when the attack begins after t, so generators on several machines share
// one timeline. How late the attack began is Meta.StartLag.
func WithStartAt(t time.Time) Option { return func(a *Attacker) { a.startAt = t } }

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
	if op, ok := a.pacer.(OffsetPacer); ok {
		a.meta.Mode, a.meta.Rate = "open", op.Rate
	} else if cp, ok := a.pacer.(ConstantPacer); ok {
		a.meta.Mode, a.meta.Rate = "open", cp.Rate
	} else if a.pacer != nil {
		a.meta.Mode = "open"
	} else {
		a.meta.Mode = "closed"
	}
	return a, nil
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

	var lag time.Duration // how late after startAt the attack began
	if !a.startAt.IsZero() {
		if err := a.clock.SleepUntil(ctx, a.startAt); err != nil {
			return nil, fmt.Errorf("wait for the start instant %s: %w", a.startAt.Format(time.RFC3339Nano), err)
		}
		lag = max(a.clock.Now().Sub(a.startAt), 0)
	}
	first, err := a.dialer.Dial(ctx)
	if err != nil {
		return nil, fmt.Errorf("target unreachable: %w", err)
	}

	res := &Result{Meta: a.meta, Totals: NewHistograms()}
	c := &collector{res: res, scratch: NewHistograms()}
	if a.hlog != nil {
		c.log = newHlogFile(a.hlog)
	}
	recs := make([]*recorder, a.connections) // one worker per connection
	for i := range recs {
		recs[i] = newRecorder()
	}
	lagRec := newRecorder()
	c.recorders = append(recs, lagRec)

	start := a.clock.Now()
	if !a.startAt.IsZero() {
		start = a.startAt
		res.Meta.StartAt, res.Meta.StartLag = a.startAt, lag
	}
	measure := start.Add(a.warmup)
	end := measure.Add(a.duration)
	res.Start, res.End = measure, end
	for _, r := range recs {
		r.cutoff = end
	}
	if c.log != nil {
		c.logErr = c.log.header(res.Meta, measure)
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
	queue := newKeyQueue(a.queueModel)
	for i := range a.connections {
		var conn Conn
		if i == 0 {
			conn = first
		}
		workers.Add(1)
		go func() {
			defer workers.Done()
			w := worker{a: a, ctx: runCtx, conn: conn, rec: recs[i], pool: &pool, measure: measure, queue: queue}
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
