package fault

import (
	"context"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// txStore is a store whose Update transactions pass through wrap: how store
// faults wrap the correct store. View, Cleanup and the rest are the inner
// store's.
type txStore struct {
	reference.Store
	wrap func(tx reference.Tx) reference.Tx
}

// Update runs fn on the wrapped transaction.
func (s txStore) Update(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	return s.Store.Update(ctx, func(ctx context.Context, tx reference.Tx) error { return fn(ctx, s.wrap(tx)) })
}

// staleStore is a store that checks before it acts: each Update first runs
// fn on committed state (Store.View) up to its first write, recording what
// fn read, and then runs fn in the transaction with wrap deciding which of
// those earlier reads it sees. This is how the time-of-check/time-of-use
// faults wrap the correct store.
type staleStore struct {
	reference.Store
	wrap func(tx reference.Tx, earlier reads) reference.Tx
}

// reads is what an Update's check saw, by bucket id.
type reads struct {
	buckets map[string]model.State
}

// Update checks, then acts.
func (s staleStore) Update(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	earlier := reads{buckets: map[string]model.State{}}
	// The check ends at fn's first write (reference.ErrReadOnly), or
	// earlier on any error: what was read so far is the check.
	_ = s.Store.View(ctx, func(ctx context.Context, tx reference.Tx) error {
		return fn(ctx, recorder{Tx: tx, r: earlier})
	})
	return s.Store.Update(ctx, func(ctx context.Context, tx reference.Tx) error { return fn(ctx, s.wrap(tx, earlier)) })
}

// recorder notes every read of a transaction.
type recorder struct {
	reference.Tx
	r reads
}

func (t recorder) Bucket(ctx context.Context, id string) (model.State, error) {
	st, err := t.Tx.Bucket(ctx, id)
	if err == nil {
		t.r.buckets[id] = st
	}
	return st, err
}
