package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
)

// Quotas is the race hunter's embedded target: for each quota, Replicas
// servers sharing one store, all on one fake clock the hunter moves.
type Quotas struct {
	Clock       *reference.FakeClock
	Bases       map[int][]string // quota → base URLs of its replicas
	Description string

	servers []*fakeserver.Running
	stores  *stores
	dir     string
}

// StartQuotas starts replicas (at least 1) servers per quota in limits,
// each set on one store, with window on a fake clock that starts on a
// whole second (Reset is unix seconds, so boundaries fall exactly). With
// o.Penalties every server serves them around its design.
func StartQuotas(window time.Duration, limits []int, replicas int, o Options) (q *Quotas, err error) {
	replicas = max(replicas, 1)
	st, err := newStores(o.Store, o.Postgres)
	if err != nil {
		return nil, err
	}
	q = &Quotas{
		Clock:  reference.NewFakeClock(time.Now().Truncate(time.Second)),
		Bases:  map[int][]string{},
		stores: st,
		Description: fmt.Sprintf("embedded reference (%s%sfault %s, %s, %d replica(s), fake clock, quotas %v)",
			o.profile(), o.penalties(), o.Fault, st.kind, replicas, limits),
	}
	defer func() {
		if err != nil {
			_ = q.Close()
			q = nil
		}
	}()
	if replicas > 1 && st.kind != fakeserver.StorePostgres {
		if q.dir, err = os.MkdirTemp("", "rlspec-race-"); err != nil {
			return nil, fmt.Errorf("temp dir: %w", err)
		}
	}
	for _, limit := range limits {
		cfg := o.base()
		cfg.Limit, cfg.Window, cfg.Clock = limit, window, q.Clock
		cfg.Penalties = o.Penalties
		// The design's entry sizes it to the quota: N, a bucket's B, a
		// queue's places and the one in service.
		p := profile.Of(cfg.Profile)
		sized := p.AtQuota(profile.Params{Limit: cfg.Limit, Burst: cfg.Burst}, limit)
		cfg.Limit, cfg.Burst = sized.Limit, sized.Burst
		if p.Queues {
			// On the fake clock a turn is not waited out in real time: the
			// answer goes at once, its Wait decided and stored as ever.
			cfg.Hold = func(ctx context.Context, _ time.Duration) bool { return ctx.Err() == nil }
		}
		path := ""
		if q.dir != "" {
			path = filepath.Join(q.dir, fmt.Sprintf("limit-%d.db", limit))
		}
		if err := st.configure(&cfg, path); err != nil {
			return nil, err
		}
		runs, err := o.startN(cfg, replicas)
		q.servers = append(q.servers, runs...)
		if err != nil {
			return nil, err
		}
		for _, run := range runs {
			q.Bases[limit] = append(q.Bases[limit], run.URL)
		}
	}
	return q, nil
}

// Limits are the served quotas, ascending.
func (q *Quotas) Limits() []int {
	out := make([]int, 0, len(q.Bases))
	for l := range q.Bases {
		out = append(out, l)
	}
	sort.Ints(out)
	return out
}

// Close stops every server and removes the stores.
func (q *Quotas) Close() error {
	err := closeAll(q.servers, q.stores)
	if q.dir != "" {
		if rerr := os.RemoveAll(q.dir); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// penalties names o's penalty tiers for a description ("" without).
func (o Options) penalties() string {
	if len(o.Penalties) == 0 {
		return ""
	}
	return "penalties " + model.FormatPenaltyTiers(o.Penalties) + ", "
}
