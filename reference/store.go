package reference

import (
	"context"
	"errors"

	"github.com/rlspec/rlspec/model"
)

// Errors a Store returns (wrapped).
var (
	// ErrBusy means the store stayed locked by another writer for longer
	// than its busy timeout. The caller must not allow the request; the
	// server answers 503 with Retry-After.
	ErrBusy = errors.New("store busy")
	// ErrUnavailable means the store could not be reached (its server is
	// down or restarting). As with ErrBusy the request is not allowed; the
	// server answers 503 with Retry-After (FAIL-1, fail-closed).
	ErrUnavailable = errors.New("store unavailable")
	// ErrClosed means the store was closed.
	ErrClosed = errors.New("store closed")
	// ErrReadOnly is a write attempted in Store.View.
	ErrReadOnly = errors.New("read-only transaction")
)

// Store keeps the reference's state: each bucket's model.State, the
// idempotency records and the ingest rows. Times are unix seconds.
type Store interface {
	// Update runs fn in one serialisable read-write transaction and returns
	// once its writes are durable. A store may group several callers' fn
	// into one transaction; if that transaction fails, each fn may be run
	// again alone, so fn must not act outside tx.
	Update(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
	// View runs fn on committed state outside any Update; writes fail with
	// ErrReadOnly.
	View(ctx context.Context, fn func(ctx context.Context, tx Tx) error) error
	// Cleanup deletes buckets whose Reset is before cut and idempotency
	// records and ingest rows created at or before cut.
	Cleanup(ctx context.Context, cut int64) (CleanupStats, error)
	// Ping checks the store answers.
	Ping(ctx context.Context) error
	// Close releases the store; pending Updates get ErrClosed.
	Close() error
}

// Tx is one transaction of a Store.
type Tx interface {
	// Bucket reads a bucket's state; an absent bucket is the zero State.
	Bucket(ctx context.Context, id string) (model.State, error)
	// PutBucket stores a bucket's state (Found is implied).
	PutBucket(ctx context.Context, id string, st model.State) error
	// Idempotency looks up key's record created after since and tells
	// whether it was recorded for a body with this SHA-256.
	Idempotency(ctx context.Context, key string, body [32]byte, since int64) (Replay, error)
	// PutIdempotency records (or replaces) key's record.
	PutIdempotency(ctx context.Context, key string, rec Record) error
	// Ingest stores one ride row.
	Ingest(ctx context.Context, r Ride) error
}

// Replay is the result of an idempotency lookup.
type Replay struct {
	Found    bool   // a live record exists for the key
	SameBody bool   // it was recorded for the body looked up with
	Status   int    // the recorded response
	Response []byte //
}

// Record is an idempotency record: the body it was made for and the
// response given.
type Record struct {
	BodySHA256 [32]byte
	Status     int
	Response   []byte
	Created    int64
}

// Ride is one ingested row; it names no bucket and no address (PRD §6).
type Ride struct {
	ID         string
	BodySHA256 [32]byte
	BodyBytes  int
	Received   int64
}

// CleanupStats counts what Cleanup deleted.
type CleanupStats struct {
	Buckets, IdempotencyKeys, Rides int64
}
