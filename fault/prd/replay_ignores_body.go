package prd

import (
	"context"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/reference"
)

// ReplayIgnoresBody is the fault ReplayIgnoresBodyName (its Name says what it breaks).
func ReplayIgnoresBody() fault.Fault {
	return fault.Fault{
		Name:        ReplayIgnoresBodyName,
		Breaks:      clause.Of(clause.AC6, clause.FR6),
		Description: "the same Idempotency-Key with a different body gets the cached response",
		Detectors:   fault.Detectors{Scenarios: []string{"AC6-03"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fault.WrapTx(func(tx reference.Tx) reference.Tx { return anyBody{tx} })
		},
	}
}

// anyBody reports every found record as made for the body looked up with.
type anyBody struct{ reference.Tx }

func (t anyBody) Idempotency(ctx context.Context, key string, body [32]byte, since int64) (reference.Replay, error) {
	rp, err := t.Tx.Idempotency(ctx, key, body, since)
	rp.SameBody = rp.Found
	return rp, err
}
