package fault

import (
	"context"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// CheckThenAct is the Wrap of a time-of-check/time-of-use fault: a store
// (NewStaleStore) whose transactions wrap decides, given what the check
// read earlier.
func CheckThenAct(wrap func(tx reference.Tx, earlier Reads) reference.Tx) func(fakeserver.Config) fakeserver.Wrap {
	return func(cfg fakeserver.Config) fakeserver.Wrap {
		return fakeserver.Wrap{Store: func(s reference.Store) reference.Store { return NewStaleStore(s, cfg.ClockOrWall(), wrap) }}
	}
}

// StaleBuckets is the Wrap of a store that decides on the state it read
// before its transaction.
var StaleBuckets = CheckThenAct(func(tx reference.Tx, earlier Reads) reference.Tx { return staleBucket{Tx: tx, earlier: earlier} })

// staleBucket answers bucket reads with what the check read.
type staleBucket struct {
	reference.Tx
	earlier Reads
}

func (t staleBucket) Bucket(ctx context.Context, id string) (model.State, error) {
	if st, ok := t.earlier.Buckets[id]; ok {
		return st, nil
	}
	return t.Tx.Bucket(ctx, id)
}
