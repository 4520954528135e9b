package storetest_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rlspec/rlspec/internal/tbrecord"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/reference/storetest"
	"github.com/rlspec/rlspec/sqlite"
)

// fails runs property p against open and reports whether it failed.
func fails(t *testing.T, p func(testing.TB, storetest.Open), open storetest.Open) bool {
	return len(tbrecord.Failures(t, func(tb testing.TB) { p(tb, open) })) > 0
}

func openSQLite(t testing.TB) *sqlite.Store {
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "rl.db"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

type fn = func(ctx context.Context, tx reference.Tx) error

// broken is SQLite with one defect; nil fields keep the correct behaviour.
type broken struct {
	*sqlite.Store
	update  func(s *sqlite.Store, ctx context.Context, f fn) error
	view    func(s *sqlite.Store, ctx context.Context, f fn) error
	cleanup func(s *sqlite.Store, ctx context.Context, cut int64) (reference.CleanupStats, error)
	tx      func(s *sqlite.Store, tx reference.Tx) reference.Tx
}

func (b broken) Update(ctx context.Context, f fn) error {
	if b.tx != nil {
		inner := f
		f = func(ctx context.Context, tx reference.Tx) error { return inner(ctx, b.tx(b.Store, tx)) }
	}
	if b.update != nil {
		return b.update(b.Store, ctx, f)
	}
	return b.Store.Update(ctx, f)
}

func (b broken) View(ctx context.Context, f fn) error {
	if b.view != nil {
		return b.view(b.Store, ctx, f)
	}
	return b.Store.View(ctx, f)
}

func (b broken) Cleanup(ctx context.Context, cut int64) (reference.CleanupStats, error) {
	if b.cleanup != nil {
		return b.cleanup(b.Store, ctx, cut)
	}
	return b.Store.Cleanup(ctx, cut)
}

type forgetful struct{ reference.Tx }

func (forgetful) Bucket(context.Context, string) (model.State, error) { return model.State{}, nil }

// logless drops a sliding log on writes.
type logless struct{ reference.Tx }

func (t logless) PutBucket(ctx context.Context, id string, st model.State) error {
	st.Log = ""
	return t.Tx.PutBucket(ctx, id, st)
}

type anyBody struct{ reference.Tx }

func (t anyBody) Idempotency(ctx context.Context, key string, body [32]byte, since int64) (reference.Replay, error) {
	rp, err := t.Tx.Idempotency(ctx, key, body, since)
	rp.SameBody = rp.Found
	return rp, err
}

// stale reads buckets outside the transaction.
type stale struct {
	reference.Tx
	s *sqlite.Store
}

func (t stale) Bucket(ctx context.Context, id string) (model.State, error) {
	var st model.State
	err := t.s.View(ctx, func(ctx context.Context, tx reference.Tx) error {
		var err error
		st, err = tx.Bucket(ctx, id)
		return err
	})
	return st, err
}

// Teeth: each property fails against a store that breaks it, and passes
// against SQLite.
func TestEachPropertyCatchesItsDefect(t *testing.T) {
	mutants := map[string]broken{
		"Buckets":     {tx: func(_ *sqlite.Store, tx reference.Tx) reference.Tx { return forgetful{tx} }},
		"Log":         {tx: func(_ *sqlite.Store, tx reference.Tx) reference.Tx { return logless{tx} }},
		"Idempotency": {tx: func(_ *sqlite.Store, tx reference.Tx) reference.Tx { return anyBody{tx} }},
		"FailedUpdateLeaves": {update: func(s *sqlite.Store, ctx context.Context, f fn) error {
			var ferr error
			if err := s.Update(ctx, func(ctx context.Context, tx reference.Tx) error { ferr = f(ctx, tx); return nil }); err != nil {
				return err
			}
			return ferr
		}},
		"View":         {view: func(s *sqlite.Store, ctx context.Context, f fn) error { return s.Update(ctx, f) }},
		"Serialisable": {tx: func(s *sqlite.Store, tx reference.Tx) reference.Tx { return stale{Tx: tx, s: s} }},
		"Cleanup": {cleanup: func(s *sqlite.Store, ctx context.Context, cut int64) (reference.CleanupStats, error) {
			return s.Cleanup(ctx, cut-1)
		}},
		"Designs":       {tx: func(_ *sqlite.Store, tx reference.Tx) reference.Tx { return logless{tx} }},
		"DesignsAtomic": {tx: func(s *sqlite.Store, tx reference.Tx) reference.Tx { return stale{Tx: tx, s: s} }},
		"Closed": {update: func(s *sqlite.Store, ctx context.Context, f fn) error {
			if err := s.Update(ctx, f); !errors.Is(err, reference.ErrClosed) {
				return err
			}
			return nil
		}},
	}
	props := storetest.Properties()
	if len(mutants) != len(props) {
		t.Fatalf("%d mutants for %d properties", len(mutants), len(props))
	}
	correct := func(t testing.TB) reference.Store { return openSQLite(t) }
	for name, p := range props {
		if fails(t, p, correct) {
			t.Errorf("%s fails against SQLite", name)
		}
		b := mutants[name]
		open := func(t testing.TB) reference.Store { b.Store = openSQLite(t); return b }
		if !fails(t, p, open) {
			t.Errorf("%s passes against a store that breaks it", name)
		}
	}
}

// remembered answers bucket reads from what its own store last wrote, as a
// per-process cache would, never seeing the other stores' writes.
type remembered struct {
	reference.Tx
	mu *sync.Mutex
	m  map[string]model.State
}

func (t remembered) Bucket(ctx context.Context, id string) (model.State, error) {
	t.mu.Lock()
	st, ok := t.m[id]
	t.mu.Unlock()
	if ok {
		return st, nil
	}
	return t.Tx.Bucket(ctx, id)
}

func (t remembered) PutBucket(ctx context.Context, id string, st model.State) error {
	t.mu.Lock()
	t.m[id] = st
	t.mu.Unlock()
	return t.Tx.PutBucket(ctx, id, st)
}

// Teeth for the shared suite: each property fails against stores of one
// file that break it, and passes against plain SQLite stores of one file.
func TestEachSharedPropertyCatchesItsDefect(t *testing.T) {
	mutants := map[string]func(*sqlite.Store) reference.Store{
		"SeeEachOther": func(s *sqlite.Store) reference.Store {
			var mu sync.Mutex
			m := map[string]model.State{}
			return broken{Store: s, tx: func(_ *sqlite.Store, tx reference.Tx) reference.Tx { return remembered{Tx: tx, mu: &mu, m: m} }}
		},
		"Serialisable": func(s *sqlite.Store) reference.Store {
			return broken{Store: s, tx: func(s *sqlite.Store, tx reference.Tx) reference.Tx { return stale{Tx: tx, s: s} }}
		},
	}
	props := storetest.SharedProperties()
	if len(mutants) != len(props) {
		t.Fatalf("%d mutants for %d properties", len(mutants), len(props))
	}
	shared := func(wrap func(*sqlite.Store) reference.Store) storetest.OpenShared {
		return storetest.OnOneFile(func(path string) (reference.Store, error) {
			s, err := sqlite.Open(context.Background(), path)
			if err != nil {
				return nil, err
			}
			return wrap(s), nil
		})
	}
	plain := shared(func(s *sqlite.Store) reference.Store { return s })
	for name, p := range props {
		if len(tbrecord.Failures(t, func(tb testing.TB) { p(tb, plain) })) > 0 {
			t.Errorf("%s fails against SQLite", name)
		}
		if len(tbrecord.Failures(t, func(tb testing.TB) { p(tb, shared(mutants[name])) })) == 0 {
			t.Errorf("%s passes against stores that break it", name)
		}
	}
}
