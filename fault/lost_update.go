package fault

import (
	"context"
	"sync"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
)

// LostUpdate is the Wrap of a non-atomic read-modify-write of a key's
// state, whatever the design keeps there (TBLostUpdate, SWCLostUpdate,
// LBLostUpdate).
func LostUpdate(cfg fakeserver.Config) fakeserver.Wrap {
	reads := &staleReads{clock: cfg.ClockOrWall(), read: map[string]staleRead{}}
	return WrapTx(func(tx reference.Tx) reference.Tx { return staleTx{Tx: tx, reads: reads} })
}

// LostUpdateOf is the lost update (LostUpdate) as fault n of profile p:
// it breaks the clauses breaks, says description, and must fail scenarios
// and be found by the race hunter on one instance.
func LostUpdateOf(n Name, p profile.Name, breaks clause.Refs, description string, scenarios ...string) Fault {
	return Fault{
		Name:        n,
		Breaks:      breaks,
		Description: description,
		Detectors:   Detectors{Scenarios: scenarios, Race: true, Replicas: 1},
		Profile:     p,
		Wrap:        LostUpdate,
	}
}

// staleReads remembers, per key, the state read at the start of its race
// and when the last request read it.
type staleReads struct {
	clock reference.Clock
	mu    sync.Mutex
	read  map[string]staleRead
}

type staleRead struct {
	st model.State
	at time.Time
}

// staleTx reads a key's state as it was read at the start of its race.
type staleTx struct {
	reference.Tx
	reads *staleReads
}

func (t staleTx) Bucket(ctx context.Context, id string) (model.State, error) {
	now := t.reads.clock.Now()
	t.reads.mu.Lock()
	r, ok := t.reads.read[id]
	if ok && now.Sub(r.at) < RaceWindow {
		t.reads.read[id] = staleRead{st: r.st, at: now} // the race goes on while requests keep coming
		t.reads.mu.Unlock()
		return r.st, nil
	}
	t.reads.mu.Unlock()
	st, err := t.Tx.Bucket(ctx, id)
	if err != nil {
		return st, err
	}
	t.reads.mu.Lock()
	t.reads.read[id] = staleRead{st: st, at: now}
	t.reads.mu.Unlock()
	return st, nil
}
