package fault

import (
	"context"

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
		Description: "the replay lookup is outside the spend transaction: N concurrent identical first requests each spend",
		Detectors:   Detectors{Scenarios: []string{"RL-AC6-02"}, Race: true, Replicas: 1},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Store: func(s reference.Store) reference.Store {
				return staleStore{Store: s, wrap: func(tx reference.Tx, earlier reads) reference.Tx { return staleReplay{Tx: tx, earlier: earlier} }}
			}}
		},
	}
}

// staleReplay answers idempotency lookups with what the check read.
type staleReplay struct {
	reference.Tx
	earlier reads
}

func (t staleReplay) Idempotency(ctx context.Context, key string, body [32]byte, since int64) (reference.Replay, error) {
	if rp, ok := t.earlier.replays[key]; ok {
		return rp, nil
	}
	return t.Tx.Idempotency(ctx, key, body, since)
}
