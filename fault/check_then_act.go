package fault

import (
	"context"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// CheckThenAct reads the bucket outside the transaction that writes it.
const CheckThenAct Name = "check-then-act"

func checkThenAct() Fault {
	return Fault{
		Name:        CheckThenAct,
		Breaks:      clause.Of(clause.AC7, clause.FR4),
		Description: "reads the bucket before the transaction that writes the absolute result: concurrent requests oversell",
		Detectors:   Detectors{Scenarios: []string{"AC7-01", "AC7-02"}, Race: true, Replicas: 1},
		Wrap:        staleBuckets,
	}
}

// staleBuckets is the Wrap of a store that decides on the state it read
// before its transaction.
func staleBuckets(cfg fakeserver.Config) fakeserver.Wrap {
	return fakeserver.Wrap{Store: func(s reference.Store) reference.Store {
		return newStaleStore(s, cfg.ClockOrWall(), func(tx reference.Tx, earlier reads) reference.Tx { return staleBucket{Tx: tx, earlier: earlier} })
	}}
}

// staleBucket answers bucket reads with what the check read.
type staleBucket struct {
	reference.Tx
	earlier reads
}

func (t staleBucket) Bucket(ctx context.Context, id string) (model.State, error) {
	if st, ok := t.earlier.buckets[id]; ok {
		return st, nil
	}
	return t.Tx.Bucket(ctx, id)
}
