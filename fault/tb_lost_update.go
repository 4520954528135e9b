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

// TBLostUpdate is a non-atomic read-modify-write of the token count
// (spec/003 reads request_count, computes, and writes the count it
// computed back with an upsert: under READ COMMITTED, or across
// replicas, requests that read the same count each spend the same token).
// Deterministic: a key's count read at one instant is what every request
// of that key reads while they come less than raceWindow apart, as if they
// had all read it before any of them wrote — a slow machine stretches the
// race instead of ending it.
const TBLostUpdate Name = "tb-lost-update"

func tbLostUpdate() Fault {
	return Fault{
		Name:        TBLostUpdate,
		Breaks:      clause.Of(clause.TB5, clause.TB2, clause.TB1),
		Description: "a non-atomic read-modify-write of the token count: requests of a key within 200 ms read the same count and each spend it",
		Seed:        "spec/003 lines 550-575: the count read, then written back by an upsert, not atomically; deterministic here: a key's count read once is what its requests read while they come less than 200 ms apart",
		Detectors:   Detectors{Scenarios: []string{"TB-5-01", "TB-2-01"}, Race: true, Replicas: 1},
		Profile:     profile.TokenBucket,
		Wrap:        lostUpdate,
	}
}

// lostUpdate is the Wrap of a non-atomic read-modify-write of a key's
// state, whatever the design keeps there (TBLostUpdate, SWCLostUpdate,
// LBLostUpdate).
func lostUpdate(cfg fakeserver.Config) fakeserver.Wrap {
	reads := &staleReads{clock: cfg.ClockOrWall(), read: map[string]staleRead{}}
	return fakeserver.Wrap{Store: func(s reference.Store) reference.Store {
		return txStore{Store: s, wrap: func(tx reference.Tx) reference.Tx { return staleTx{Tx: tx, reads: reads} }}
	}}
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
	if ok && now.Sub(r.at) < raceWindow {
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
