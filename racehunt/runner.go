package racehunt

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"sync"
	"time"

	"github.com/rlspec/rlspec/racehunt/histcheck"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// Clock reads the target's clock. Against the embedded reference it is the
// fake clock the server runs on; against a live target it is nil (wall clock).
type Clock interface{ Now() time.Time }

// Mover moves a fake target clock forward; the runner uses it for bursts
// aimed at a window boundary.
type Mover interface {
	Clock
	Set(t time.Time)
}

// Runner sends workloads to a target (one or more base URLs serving one
// shared state) and records histories. A Runner is used by one goroutine.
type Runner struct {
	cfg       service.Config
	bases     []string
	limit     int
	body      *bodytmpl.Body
	clock     Mover // nil: live target, wall clock
	timeout   time.Duration
	tolerance time.Duration
	maxWait   time.Duration
	model     model.Model // the profile's design at limit
	// used are the client addresses this runner's workloads have had: a
	// later workload's client never shares an earlier one's address, whose
	// key (no-bucket) may still hold state — penalties' violations count
	// for 24 h, longer than any hunt's clock moves. newAddr draws one.
	used    map[netip.Addr]bool
	newAddr func() netip.Addr
}

// RunnerOption configures a Runner.
type RunnerOption func(*Runner)

// WithFakeClock makes the runner read and move the target's fake clock
// instead of waiting on the wall clock.
func WithFakeClock(c Mover) RunnerOption { return func(r *Runner) { r.clock = c } }

// WithRequestTimeout bounds each request (default httpclient.DefaultTimeout).
func WithRequestTimeout(d time.Duration) RunnerOption { return func(r *Runner) { r.timeout = d } }

// WithMaxWait bounds a wait on the wall clock for a window boundary
// (MAX_WAIT; default service.DefaultMaxWait): a longer one is skipped.
func WithMaxWait(d time.Duration) RunnerOption { return func(r *Runner) { r.maxWait = d } }

// WithTolerance sets the allowed skew between the harness's and the target's
// clocks (default 2 s against a live target, 0 with a fake clock).
func WithTolerance(d time.Duration) RunnerOption { return func(r *Runner) { r.tolerance = d } }

// NewRunner returns a runner of cfg's endpoint on bases; clients are spread
// over the bases round-robin. limit is the quota the target enforces.
func NewRunner(cfg service.Config, bases []string, limit int, opts ...RunnerOption) (*Runner, error) {
	if len(bases) == 0 {
		return nil, errors.New("runner: no base URL")
	}
	body, err := bodytmpl.Load(cfg.BodyTemplate)
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	cfg = cfg.ForProfile(cfg.Profile)
	m, err := ModelFor(cfg, limit)
	if err != nil {
		return nil, fmt.Errorf("runner: %w", err)
	}
	mode, _ := cfg.Sending()
	r := &Runner{cfg: cfg, bases: bases, limit: limit, body: body, timeout: httpclient.DefaultTimeout, tolerance: -1, maxWait: service.DefaultMaxWait, model: m,
		used: map[netip.Addr]bool{}, newAddr: func() netip.Addr { return httpclient.NewAddr(mode) }}
	for _, o := range opts {
		o(r)
	}
	if r.tolerance < 0 {
		r.tolerance = 2 * time.Second
		if r.clock != nil {
			r.tolerance = 0
		}
	}
	return r, nil
}

// Limit is the quota the runner's target enforces.
func (r *Runner) Limit() int { return r.limit }

// badBuckets are device_bucket values that are not 64 hex characters.
var badBuckets = []string{"not-a-sha256", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde", "", "zz56789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123"}

// prepared is one request ready to send.
type prepared struct {
	client *httpclient.Client
	req    httpclient.Request
	op     histcheck.Op
}

// Run sends w burst by burst and returns its history. Errors are for runs
// that could not happen (bad body template); a target that misbehaves gives
// a history with the misbehaviour in it.
func (r *Runner) Run(ctx context.Context, w Workload) (*histcheck.History, error) {
	if w.Limit != r.limit {
		return nil, fmt.Errorf("run: workload for limit %d on a target with limit %d", w.Limit, r.limit)
	}
	h := &histcheck.History{Limit: r.limit, Window: r.cfg.Window, Tolerance: r.tolerance, Profile: r.cfg.Profile, Model: r.model,
		WindowAlign: r.cfg.WindowAlign, Answer: r.cfg.Answer()}
	clients := make([]*httpclient.Client, w.Clients)
	for i := range clients {
		opts := []httpclient.Option{httpclient.WithTimeout(r.timeout), httpclient.WithAddr(r.freshAddr())}
		clients[i] = httpclient.New(r.cfg, r.bases[i%len(r.bases)], opts...)
		defer clients[i].Close()
	}
	buckets := make([]string, w.Buckets)
	for i := range buckets {
		buckets[i] = bodytmpl.NewDeviceBucket()
		if !profile.IsPRD(r.cfg.Profile) {
			k, err := r.cfg.RenderKey(bodytmpl.NewUUID())
			if err != nil {
				return nil, fmt.Errorf("run: %w", err)
			}
			buckets[i] = k
		}
	}
	type group struct {
		key  string
		body []byte
	}
	groups := make([]group, w.Groups)
	for g := range groups {
		b, err := r.body.Render(bodytmpl.Bucket(buckets[w.GroupBucket(g)]))
		if err != nil {
			return nil, fmt.Errorf("render group body: %w", err)
		}
		groups[g] = group{key: bodytmpl.NewUUID(), body: b}
	}
	if r.clock != nil && !profile.IsPRD(r.cfg.Profile) {
		// The same boundaries every run: start Offset half-seconds into
		// the next window aligned to the epoch.
		win := r.cfg.Window.Nanoseconds()
		start := (r.clock.Now().UnixNano()/win+1)*win + int64(w.Offset)*int64(500*time.Millisecond)
		r.clock.Set(time.Unix(0, start))
	}
	lastReset := map[string]int64{} // bucket key → latest Reset seen
	for bi, burst := range w.Bursts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		ps := make([]prepared, len(burst.Reqs))
		for j, q := range burst.Reqs {
			c := clients[q.Client]
			p := prepared{client: c, op: histcheck.Op{Burst: bi, Req: q}}
			var field bodytmpl.BucketField
			if !profile.IsPRD(r.cfg.Profile) {
				if err := r.keyed(&p, q, buckets); err != nil {
					return nil, err
				}
				ps[j] = p
				continue
			}
			switch q.Kind {
			case histcheck.Fresh:
				field = bodytmpl.Bucket(buckets[q.Bucket])
				p.op.Bucket = "dev:" + buckets[q.Bucket]
				p.req.IdempotencyKey = bodytmpl.NewUUID()
			case histcheck.Keyed:
				p.op.Bucket = "dev:" + buckets[q.Bucket]
				p.req.IdempotencyKey, p.req.Body = groups[q.Group].key, groups[q.Group].body
			case histcheck.Conflict:
				field = bodytmpl.Bucket(buckets[q.Bucket])
				p.op.Bucket = "dev:" + buckets[q.Bucket]
				p.req.IdempotencyKey = groups[q.Group].key
			case histcheck.NoBucket:
				field = bodytmpl.Omit()
				p.op.Bucket = "ip:" + clientKey(c.Addr())
				p.req.IdempotencyKey = bodytmpl.NewUUID()
			case histcheck.BadBucket:
				field = bodytmpl.Bucket(badBuckets[(bi+j)%len(badBuckets)])
				p.op.Bucket = "ip:" + clientKey(c.Addr())
				p.req.IdempotencyKey = bodytmpl.NewUUID()
			default:
				return nil, fmt.Errorf("run: unknown request kind %d", q.Kind)
			}
			if p.req.Body == nil {
				b, err := r.body.Render(field)
				if err != nil {
					return nil, fmt.Errorf("render body: %w", err)
				}
				p.req.Body = b
			}
			p.op.IdemKey = p.req.IdempotencyKey
			p.op.BodyHash = histcheck.HashBytes(p.req.Body)
			ps[j] = p
		}
		if burst.Advance == HalfSecond {
			if note, err := r.moveBy(ctx, 500*time.Millisecond); err != nil {
				return nil, err
			} else if note != "" {
				h.Notes = append(h.Notes, fmt.Sprintf("burst %d: %s", bi, note))
			}
		} else if burst.Advance != Stay && len(ps) > 0 {
			if reset, ok := lastReset[ps[0].op.Bucket]; ok {
				to := time.Unix(reset, 0)
				if burst.Advance == JustBefore {
					to = to.Add(-time.Second)
				}
				if note, err := r.moveTo(ctx, to); err != nil {
					return nil, err
				} else if note != "" {
					h.Notes = append(h.Notes, fmt.Sprintf("burst %d: %s", bi, note))
				}
			}
		}
		r.release(ctx, ps)
		for j := range ps {
			ps[j].op.Index = len(h.Ops)
			h.Ops = append(h.Ops, ps[j].op)
			if rl, err := histcheck.RateLimitOf(&ps[j].op); err == nil {
				if rl.Reset > lastReset[ps[j].op.Bucket] {
					lastReset[ps[j].op.Bucket] = rl.Reset
				}
			}
		}
	}
	h.BoundLost()
	return h, nil
}

func clientKey(a netip.Addr) string { return a.Unmap().String() }

// freshAddr is a client address none of the runner's clients had.
func (r *Runner) freshAddr() netip.Addr {
	for {
		if a := r.newAddr(); !r.used[a] {
			r.used[a] = true
			return a
		}
	}
}

// keyed prepares request q of a profile other than the PRD: Fresh carries
// key q.Bucket (KEY, KEY_FORMAT), NoBucket no key; either is counted
// against the client address when it has no key or KEY=ip.
func (r *Runner) keyed(p *prepared, q histcheck.Req, keys []string) error {
	key := ""
	switch q.Kind {
	case histcheck.Fresh:
		key = keys[q.Bucket]
	case histcheck.NoBucket:
	default:
		return fmt.Errorf("run: request kind %s is the PRD's, not PROFILE=%s's", q.Kind, r.cfg.Profile)
	}
	p.req = r.cfg.KeyedRequest(key)
	p.op.Bucket = "key:" + key
	if key == "" || r.cfg.Key.Kind == service.KeyIP {
		p.op.Bucket = "ip:" + clientKey(p.client.Addr())
	}
	p.op.BodyHash = histcheck.HashBytes(p.req.Body)
	return nil
}

// moveBy moves the target's clock d on (see moveTo).
func (r *Runner) moveBy(ctx context.Context, d time.Duration) (string, error) {
	if r.clock != nil {
		return r.moveTo(ctx, r.clock.Now().Add(d))
	}
	return r.moveTo(ctx, time.Now().Add(d))
}

// moveTo brings the target's clock to t: sets the fake clock (never
// backwards), or waits on the wall clock when that takes at most MaxWait.
func (r *Runner) moveTo(ctx context.Context, t time.Time) (string, error) {
	if r.clock != nil {
		if t.After(r.clock.Now()) {
			r.clock.Set(t)
		}
		return "", nil
	}
	d := time.Until(t)
	if d <= 0 {
		return "", nil
	}
	if d > r.maxWait {
		return fmt.Sprintf("boundary %s away, longer than MAX_WAIT=%s: not waited for", d.Round(time.Millisecond), r.maxWait), nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return "", nil
	case <-ctx.Done():
		return "", fmt.Errorf("wait for window boundary: %w", ctx.Err())
	}
}

// release sends a burst's requests together: every goroutine parks on a
// barrier, which opens once all are ready.
func (r *Runner) release(ctx context.Context, ps []prepared) {
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(len(ps))
	done.Add(len(ps))
	var from time.Time
	if r.clock != nil {
		from = r.clock.Now()
	}
	for i := range ps {
		go func(p *prepared) {
			defer done.Done()
			ready.Done()
			<-start
			p.op.Ex = p.client.Do(ctx, p.req)
		}(&ps[i])
	}
	ready.Wait()
	close(start)
	done.Wait()
	for i := range ps {
		op := &ps[i].op
		if r.clock != nil {
			op.ServerFrom, op.ServerTo = from, r.clock.Now()
		} else {
			op.ServerFrom, op.ServerTo = op.Ex.Sent, op.Ex.Received
		}
	}
}
