package racehunt

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/redact"
	"github.com/rlspec/rlspec/service"
)

// Target gives runners for workloads: one per quota it can enforce.
type Target interface {
	// Limits are the quotas workloads may be generated for.
	Limits() []int
	// Runner returns the runner for a quota of Limits.
	Runner(limit int) (*Runner, error)
	// Describe names the target for reports.
	Describe() string
	Close() error
}

// Live is a running target (TARGET_URL, or the base URLs of replicas
// sharing one state) enforcing cfg.Limit per cfg.Window.
type Live struct {
	runner *Runner
	desc   string
}

var _ Target = (*Live)(nil)

// NewLive returns a live target on bases after checking that the first one
// answers a request (on a fresh bucket, so the probe spends nothing a
// workload will see).
func NewLive(ctx context.Context, cfg service.Config, bases []string, opts ...RunnerOption) (*Live, error) {
	if err := cfg.CheckClientIPs(ctx, nil, bases); err != nil {
		return nil, err
	}
	r, err := NewRunner(cfg, bases, cfg.Quota(), opts...)
	if err != nil {
		return nil, err
	}
	for _, base := range bases {
		if err := probe(ctx, r.cfg, base, r.body); err != nil {
			return nil, err
		}
	}
	shown := make([]string, len(bases))
	for i, b := range bases {
		shown[i] = redact.URL(b)
	}
	sizing := profile.Of(cfg.Profile).Sizing(cfg.Params())
	desc := fmt.Sprintf("%v (%s)", shown, sizing)
	if !profile.IsPRD(r.cfg.Profile) {
		desc = fmt.Sprintf("%v (PROFILE=%s, %s)", shown, r.cfg.Profile, sizing)
	}
	return &Live{runner: r, desc: desc}, nil
}

func probe(ctx context.Context, cfg service.Config, base string, body *bodytmpl.Body) error {
	c := httpclient.New(cfg, base)
	defer c.Close()
	req, err := probeRequest(cfg, body)
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	ex := c.Do(ctx, req)
	if ex.Err != nil {
		return fmt.Errorf("target %s does not answer: %w", redact.URL(cfg.Endpoint(base)), ex.Err)
	}
	if ex.Status >= 500 || ex.Status == http.StatusNotFound {
		return fmt.Errorf("target %s answered a valid request with HTTP %d", redact.URL(cfg.Endpoint(base)), ex.Status)
	}
	return nil
}

// probeRequest is a request on a fresh bucket or key of cfg's profile.
func probeRequest(cfg service.Config, body *bodytmpl.Body) (httpclient.Request, error) {
	if !profile.IsPRD(cfg.Profile) {
		key, err := cfg.RenderKey(bodytmpl.NewUUID())
		return cfg.KeyedRequest(key), err
	}
	b, err := body.Render(bodytmpl.Bucket(bodytmpl.NewDeviceBucket()))
	return httpclient.Request{Body: b, IdempotencyKey: bodytmpl.NewUUID()}, err
}

// Limits is the target's one quota.
func (l *Live) Limits() []int { return []int{l.runner.limit} }

// Runner returns the target's runner.
func (l *Live) Runner(limit int) (*Runner, error) {
	if limit != l.runner.limit {
		return nil, fmt.Errorf("live target enforces %d, not %d", l.runner.limit, limit)
	}
	return l.runner, nil
}

// Describe names the target.
func (l *Live) Describe() string { return l.desc }

// Close does nothing: the target is not ours.
func (l *Live) Close() error { return nil }

// Quotas is a target serving several quotas on one fake clock the hunter
// moves: for each quota, the base URLs of instances sharing one state (the
// embedded reference's replicas; package embedded starts them).
type Quotas struct {
	runners map[int]*Runner
	desc    string
	close   func() error
}

var _ Target = (*Quotas)(nil)

// NewQuotas returns the target for bases (quota → base URLs) on clock;
// closeFn (may be nil) is called by Close.
func NewQuotas(cfg service.Config, bases map[int][]string, clock Mover, desc string, closeFn func() error) (*Quotas, error) {
	q := &Quotas{runners: map[int]*Runner{}, desc: desc, close: closeFn}
	for limit, urls := range bases {
		r, err := NewRunner(cfg, urls, limit, WithFakeClock(clock))
		if err != nil {
			return nil, err
		}
		q.runners[limit] = r
	}
	if len(q.runners) == 0 {
		return nil, errors.New("racehunt: no quota to hunt on")
	}
	return q, nil
}

// Limits are the served quotas.
func (q *Quotas) Limits() []int {
	out := make([]int, 0, len(q.runners))
	for l := range q.runners {
		out = append(out, l)
	}
	sort.Ints(out)
	return out
}

// Runner returns the runner of the instances enforcing limit.
func (q *Quotas) Runner(limit int) (*Runner, error) {
	r, ok := q.runners[limit]
	if !ok {
		return nil, fmt.Errorf("no instance with limit %d", limit)
	}
	return r, nil
}

// Describe names the target.
func (q *Quotas) Describe() string { return q.desc }

// Close calls the close function given to NewQuotas.
func (q *Quotas) Close() error {
	if q.close == nil {
		return nil
	}
	return q.close()
}
