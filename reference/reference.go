package reference

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/model"
)

// DefaultRetention is how long idle buckets, idempotency records and ingest
// rows are kept.
const DefaultRetention = 24 * time.Hour

// Reference is the reference limiter: a model on a store. It is safe for
// concurrent use when its Store is.
type Reference struct {
	model     model.Model
	store     Store
	clock     Clock
	retention time.Duration
}

// Option configures a Reference.
type Option func(*Reference)

// WithClock sets the clock (default WallClock).
func WithClock(c Clock) Option { return func(r *Reference) { r.clock = c } }

// WithRetention sets how long idle buckets, idempotency records and ingest
// rows are kept (default 24h).
func WithRetention(d time.Duration) Option { return func(r *Reference) { r.retention = d } }

// New builds the reference on m and st. It owns st: Close closes it.
func New(m model.Model, st Store, opts ...Option) (*Reference, error) {
	r := &Reference{model: m, store: st, clock: WallClock{}, retention: DefaultRetention}
	for _, o := range opts {
		o(r)
	}
	switch {
	case m == nil || st == nil:
		return nil, errors.New("reference: nil model or store")
	case r.clock == nil:
		return nil, errors.New("reference: nil clock")
	case r.retention < time.Second:
		return nil, fmt.Errorf("reference: retention %v < 1s", r.retention)
	}
	return r, nil
}

// Model is the reference's policy.
func (r *Reference) Model() model.Model { return r.model }

// Store is the reference's store.
func (r *Reference) Store() Store { return r.store }

// Cleanup deletes what the retention lets go (see Store.Cleanup).
func (r *Reference) Cleanup(ctx context.Context) (CleanupStats, error) {
	st, err := r.store.Cleanup(ctx, r.clock.Now().Unix()-r.retentionSec())
	if err != nil {
		return CleanupStats{}, fmt.Errorf("cleanup: %w", err)
	}
	return st, nil
}

// Bucket reads a bucket's stored state (for tests and inspection).
func (r *Reference) Bucket(ctx context.Context, id string) (model.State, error) {
	var st model.State
	err := r.store.View(ctx, func(ctx context.Context, tx Tx) error {
		var err error
		st, err = tx.Bucket(ctx, id)
		return err
	})
	return st, err
}

// Ping checks the store answers.
func (r *Reference) Ping(ctx context.Context) error { return r.store.Ping(ctx) }

// Close closes the store.
func (r *Reference) Close() error { return r.store.Close() }

func (r *Reference) retentionSec() int64 { return int64(r.retention / time.Second) }
