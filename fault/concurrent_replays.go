package fault

import (
	"context"
	"sync"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/reference"
)

// ConcurrentReplays looks idempotency keys up outside the spend transaction.
const ConcurrentReplays Name = "concurrent-replays"

func concurrentReplays() Fault {
	return Fault{
		Name:        ConcurrentReplays,
		Breaks:      clause.Of(clause.AC6, clause.FR6),
		Description: "the replay lookup is outside the spend transaction: identical requests racing a key's first one each spend",
		Detectors:   Detectors{Scenarios: []string{"RL-AC6-02"}, Race: true, Replicas: 1},
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			recs := &records{clock: cfg.ClockOrWall(), at: map[string]time.Time{}}
			return fakeserver.Wrap{Store: func(s reference.Store) reference.Store {
				return txStore{Store: s, wrap: func(tx reference.Tx) reference.Tx { return unseenReplay{Tx: tx, recs: recs} }}
			}}
		},
	}
}

// replayRace is how long a key's first idempotency record stays unseen by
// the identical requests racing it: each of them looked the key up before
// the record was committed, and each spends. Deterministic, where a real
// race depends on scheduling (the self-test must catch it every run: a
// burst of identical requests that arrives within 200 ms always overlaps).
const replayRace = 200 * time.Millisecond

// records remembers when each idempotency key was first recorded.
type records struct {
	clock reference.Clock
	mu    sync.Mutex
	at    map[string]time.Time
}

// unseenReplay reads an idempotency key as unknown within replayRace of its
// first record.
type unseenReplay struct {
	reference.Tx
	recs *records
}

func (t unseenReplay) Idempotency(ctx context.Context, key string, body [32]byte, since int64) (reference.Replay, error) {
	t.recs.mu.Lock()
	first, ok := t.recs.at[key]
	t.recs.mu.Unlock()
	if ok && t.recs.clock.Now().Sub(first) < replayRace {
		return reference.Replay{}, nil
	}
	return t.Tx.Idempotency(ctx, key, body, since)
}

func (t unseenReplay) PutIdempotency(ctx context.Context, key string, rec reference.Record) error {
	t.recs.mu.Lock()
	if _, ok := t.recs.at[key]; !ok {
		t.recs.at[key] = t.recs.clock.Now()
	}
	t.recs.mu.Unlock()
	return t.Tx.PutIdempotency(ctx, key, rec)
}
