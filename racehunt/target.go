package racehunt

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/target"
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
func NewLive(ctx context.Context, cfg target.Config, bases []string, opts ...RunnerOption) (*Live, error) {
	r, err := NewRunner(cfg, bases, cfg.Limit, opts...)
	if err != nil {
		return nil, err
	}
	for _, base := range bases {
		if err := probe(ctx, cfg, base, r.body); err != nil {
			return nil, err
		}
	}
	return &Live{runner: r, desc: fmt.Sprintf("%v (RL_LIMIT=%d, RL_WINDOW=%s)", bases, cfg.Limit, cfg.Window)}, nil
}

func probe(ctx context.Context, cfg target.Config, base string, body *target.Body) error {
	c := target.NewClient(cfg, base)
	defer c.Close()
	b, err := body.Render(target.Bucket(target.NewDeviceBucket()))
	if err != nil {
		return fmt.Errorf("probe: %w", err)
	}
	ex := c.Do(ctx, target.Request{Body: b, IdempotencyKey: target.NewUUID()})
	if ex.Err != nil {
		return fmt.Errorf("target %s does not answer: %w", cfg.Endpoint(base), ex.Err)
	}
	if ex.Status >= 500 || ex.Status == http.StatusNotFound {
		return fmt.Errorf("target %s answered a valid request with HTTP %d", cfg.Endpoint(base), ex.Status)
	}
	return nil
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

// Embedded is the in-process reference (fakeserver, optionally with a
// fault) on a fake clock: one server set per quota, each of Replicas
// servers sharing one database file.
type Embedded struct {
	clock   *reference.FakeClock
	runners map[int]*Runner
	servers []*fakeserver.Running
	dir     string
	desc    string
}

var _ Target = (*Embedded)(nil)

// EmbeddedOptions configure StartEmbedded.
type EmbeddedOptions struct {
	Fault    fakeserver.Fault
	Replicas int   // servers per quota on one database file (default 1)
	Limits   []int // quotas to serve (default 1, 2, 3, 4)
}

// StartEmbedded starts the reference servers on loopback.
func StartEmbedded(cfg target.Config, o EmbeddedOptions) (*Embedded, error) {
	if o.Replicas < 1 {
		o.Replicas = 1
	}
	if len(o.Limits) == 0 {
		o.Limits = []int{1, 2, 3, 4}
	}
	// Whole seconds: Reset is unix seconds, so boundaries fall exactly.
	e := &Embedded{clock: reference.NewFakeClock(time.Now().Truncate(time.Second)), runners: map[int]*Runner{}}
	e.desc = fmt.Sprintf("embedded reference (fault %s, %d replica(s), fake clock, quotas %v)", o.Fault, o.Replicas, o.Limits)
	if o.Replicas > 1 {
		dir, err := os.MkdirTemp("", "rlspec-race-")
		if err != nil {
			return nil, fmt.Errorf("temp dir: %w", err)
		}
		e.dir = dir
	}
	for _, limit := range o.Limits {
		sc := fakeserver.DefaultConfig()
		sc.Limit, sc.Window, sc.Fault, sc.Clock = limit, cfg.Window, o.Fault, e.clock
		if e.dir != "" {
			sc.DBPath = filepath.Join(e.dir, fmt.Sprintf("limit-%d.db", limit))
		}
		var bases []string
		for i := 0; i < o.Replicas; i++ {
			run, err := fakeserver.Start(sc, "127.0.0.1:0")
			if err != nil {
				e.Close()
				return nil, fmt.Errorf("start reference: %w", err)
			}
			e.servers = append(e.servers, run)
			bases = append(bases, run.URL)
		}
		r, err := NewRunner(cfg, bases, limit, WithFakeClock(e.clock))
		if err != nil {
			e.Close()
			return nil, err
		}
		e.runners[limit] = r
	}
	return e, nil
}

// Limits are the served quotas.
func (e *Embedded) Limits() []int {
	out := make([]int, 0, len(e.runners))
	for l := range e.runners {
		out = append(out, l)
	}
	sort.Ints(out)
	return out
}

// Runner returns the runner of the servers enforcing limit.
func (e *Embedded) Runner(limit int) (*Runner, error) {
	r, ok := e.runners[limit]
	if !ok {
		return nil, fmt.Errorf("no embedded server with limit %d", limit)
	}
	return r, nil
}

// Describe names the target.
func (e *Embedded) Describe() string { return e.desc }

// Close stops every server and removes the shared database directory.
func (e *Embedded) Close() error {
	var errs []error
	for _, s := range e.servers {
		errs = append(errs, s.Close())
	}
	if e.dir != "" {
		errs = append(errs, os.RemoveAll(e.dir))
	}
	return errors.Join(errs...)
}
