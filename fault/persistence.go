package fault

import (
	"context"
	"sync"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
)

// MemoryQuotaOf is a memory-only quota in profile p, which scenario must
// catch.
func MemoryQuotaOf(n Name, p profile.Name, scenario string) Fault {
	return Fault{
		Name:        n,
		Breaks:      clause.Of(clause.PS1),
		Description: "the quota lives in process memory, never in the store: a restart gives every key its whole quota back",
		Detectors:   Detectors{Scenarios: []string{scenario}},
		Profile:     p,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			// A new process (a restart) starts with an empty memory.
			mem := &memory{buckets: map[string]model.State{}}
			return fakeserver.Wrap{Store: func(s reference.Store) reference.Store {
				return effectStore{Store: s, wrap: func(tx reference.Tx, e *effects) reference.Tx { return memoryTx{Tx: tx, mem: mem, e: e} }}
			}}
		},
	}
}

// memory is one process's quota state.
type memory struct {
	mu      sync.Mutex
	buckets map[string]model.State
}

// memoryTx reads and writes bucket state in memory; idempotency records
// and rides still go to the store.
type memoryTx struct {
	reference.Tx
	mem *memory
	e   *effects // the memory writes, made once the Update commits
}

func (t memoryTx) Bucket(_ context.Context, id string) (model.State, error) {
	t.mem.mu.Lock()
	defer t.mem.mu.Unlock()
	return t.mem.buckets[id], nil
}

func (t memoryTx) PutBucket(_ context.Context, id string, st model.State) error {
	t.e.add(func() {
		t.mem.mu.Lock()
		defer t.mem.mu.Unlock()
		t.mem.buckets[id] = st
	})
	return nil
}

// ProcessCacheOf is a per-process cache in profile p. Its symptom,
// oversell across replicas, is invisible with one instance: the self-test
// runs the acceptance suite against several on one store (Replicas), where
// MI-1's scenarios of p must catch it (and, for the PRD's, the race hunter
// against Replicas servers).
func ProcessCacheOf(n Name, p profile.Name, scenarios ...string) Fault {
	return Fault{
		Name:        n,
		Breaks:      clause.Of(clause.MI1),
		Description: "a per-process in-memory quota cache: right with one replica, oversells with several sharing one store",
		Detectors:   Detectors{Scenarios: scenarios, Replicas: 2},
		Profile:     p,
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Store: func(s reference.Store) reference.Store {
				return &cachedStore{Store: s, cache: map[string]model.State{}}
			}}
		},
	}
}

// cachedStore answers bucket reads in Update from what this process last
// read or wrote, never seeing other processes' writes. Its decisions are
// serialised by a process-wide lock (as an in-memory cache's would be), so
// within one process it is exact on any store, SQLite's single writer or
// PostgreSQL's many connections alike; only other processes go unseen.
type cachedStore struct {
	reference.Store
	decide sync.Mutex // held for a whole Update
	mu     sync.Mutex // guards cache
	cache  map[string]model.State
}

func (s *cachedStore) Update(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	s.decide.Lock()
	defer s.decide.Unlock()
	return effectStore{Store: s.Store, wrap: func(tx reference.Tx, e *effects) reference.Tx { return cachedTx{Tx: tx, s: s, e: e} }}.Update(ctx, fn)
}

func (s *cachedStore) Cleanup(ctx context.Context, cut int64) (reference.CleanupStats, error) {
	st, err := s.Store.Cleanup(ctx, cut)
	s.mu.Lock()
	clear(s.cache)
	s.mu.Unlock()
	return st, err
}

func (s *cachedStore) put(id string, st model.State) {
	s.mu.Lock()
	s.cache[id] = st
	s.mu.Unlock()
}

type cachedTx struct {
	reference.Tx
	s *cachedStore
	e *effects // the cache's fills, made once the Update commits
}

func (t cachedTx) Bucket(ctx context.Context, id string) (model.State, error) {
	t.s.mu.Lock()
	st, ok := t.s.cache[id]
	t.s.mu.Unlock()
	if ok {
		return st, nil
	}
	st, err := t.Tx.Bucket(ctx, id)
	if err == nil && st.Found {
		t.e.add(func() { t.s.put(id, st) })
	}
	return st, err
}

func (t cachedTx) PutBucket(ctx context.Context, id string, st model.State) error {
	if err := t.Tx.PutBucket(ctx, id, st); err != nil {
		return err
	}
	st.Found = true
	t.e.add(func() { t.s.put(id, st) })
	return nil
}
