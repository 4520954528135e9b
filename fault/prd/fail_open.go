package prd

import (
	"context"
	"errors"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// FailOpen is the fault FailOpenName (its Name says what it breaks).
func FailOpen() fault.Fault {
	return fault.Fault{
		Name:        FailOpenName,
		Breaks:      clause.Of(clause.FAIL1),
		Description: "store errors allow the request (fail-open)",
		Detectors:   fault.Detectors{Scenarios: []string{"FAIL-1-01"}},
		Wrap: func(fakeserver.Config) fakeserver.Wrap {
			return fakeserver.Wrap{Store: func(s reference.Store) reference.Store { return failOpenStore{Store: s} }}
		},
	}
}

// failOpenStore runs fn on a scratch transaction when the store fails.
type failOpenStore struct{ reference.Store }

func (s failOpenStore) Update(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	err := s.Store.Update(ctx, fn)
	if errors.Is(err, reference.ErrBusy) || errors.Is(err, reference.ErrUnavailable) {
		return fn(ctx, scratchTx{})
	}
	return err
}

// scratchTx reads nothing and keeps nothing.
type scratchTx struct{}

var _ reference.Tx = scratchTx{}

func (scratchTx) Bucket(context.Context, string) (model.State, error)  { return model.State{}, nil }
func (scratchTx) PutBucket(context.Context, string, model.State) error { return nil }
func (scratchTx) Idempotency(context.Context, string, [32]byte, int64) (reference.Replay, error) {
	return reference.Replay{}, nil
}
func (scratchTx) PutIdempotency(context.Context, string, reference.Record) error { return nil }
func (scratchTx) Ingest(context.Context, reference.Ride) error                   { return nil }
