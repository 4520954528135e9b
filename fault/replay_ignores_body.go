package fault

import (
	"context"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/reference"
)

// ReplayIgnoresBody takes any record of a key for a replay.
const ReplayIgnoresBody Name = "replay-ignores-body"

func replayIgnoresBody() Fault {
	return Fault{
		Name:        ReplayIgnoresBody,
		Breaks:      clause.Of(clause.AC6, clause.FR6),
		Description: "the same Idempotency-Key with a different body gets the cached response",
		Detectors:   Detectors{Scenarios: []string{"AC6-03"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Store: func(s reference.Store) reference.Store {
				return txStore{Store: s, wrap: func(tx reference.Tx) reference.Tx { return anyBody{tx} }}
			}}
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
