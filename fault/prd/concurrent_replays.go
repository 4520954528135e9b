package prd

import (
	"context"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/reference"
)

// ConcurrentReplays is the fault ConcurrentReplaysName (its Name says what it breaks).
func ConcurrentReplays() fault.Fault {
	return fault.Fault{
		Name:        ConcurrentReplaysName,
		Breaks:      clause.Of(clause.AC6, clause.FR6),
		Description: "the replay lookup is outside the spend transaction: identical requests racing a key's first one each spend",
		Detectors:   fault.Detectors{Scenarios: []string{"AC6-02"}, Race: true, Replicas: 1},
		Wrap: func(cfg fakeserver.Config) fakeserver.Wrap {
			recs := fault.NewFirstWrites(cfg.ClockOrWall())
			return fault.WrapTx(func(tx reference.Tx) reference.Tx { return unseenReplay{Tx: tx, recs: recs} })
		},
	}
}

// unseenReplay reads an idempotency key as unknown within raceWindow of its
// first record: the identical requests racing the first one each looked the
// key up before the record was committed, and each spends.
type unseenReplay struct {
	reference.Tx
	recs *fault.FirstWrites
}

func (t unseenReplay) Idempotency(ctx context.Context, key string, body [32]byte, since int64) (reference.Replay, error) {
	if t.recs.Hidden(key) {
		return reference.Replay{}, nil
	}
	return t.Tx.Idempotency(ctx, key, body, since)
}

func (t unseenReplay) PutIdempotency(ctx context.Context, key string, rec reference.Record) error {
	t.recs.Wrote(key)
	return t.Tx.PutIdempotency(ctx, key, rec)
}
