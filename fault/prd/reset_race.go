package prd

import (
	"context"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// ResetRace is the fault ResetRaceName (its Name says what it breaks).
func ResetRace() fault.Fault {
	return fault.Fault{
		Name:        ResetRaceName,
		Breaks:      clause.Of(clause.AC4, clause.FR5),
		Description: "the expiry check runs outside the transaction: requests racing at the boundary each refill",
		Detectors:   fault.Detectors{Scenarios: []string{"AC4-02"}, Race: true, Replicas: 1},
		Wrap: fault.CheckThenAct(func(tx reference.Tx, earlier fault.Reads) reference.Tx {
			return staleExpiry{Tx: tx, earlier: earlier}
		}),
	}
}

// staleExpiry returns the state the check read when the transaction shows
// that window already replaced: the model, seeing it expired, refills again.
type staleExpiry struct {
	reference.Tx
	earlier fault.Reads
}

func (t staleExpiry) Bucket(ctx context.Context, id string) (model.State, error) {
	cur, err := t.Tx.Bucket(ctx, id)
	if err != nil {
		return cur, err
	}
	if old, ok := t.earlier.Buckets[id]; ok && old.Found && cur.Found && old.Reset < cur.Reset {
		return old, nil
	}
	return cur, nil
}
