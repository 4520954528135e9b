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
