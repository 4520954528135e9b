package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// The statements of a transaction (FR-1's table layout).
const (
	sqlGetBucket = `SELECT quota_remaining, reset_utc, state_log, penalty_count, penalty_last_ms, penalty_until_ms
		FROM rate_limit_buckets WHERE bucket_id = ?`
	sqlPutBucket = `INSERT INTO rate_limit_buckets (bucket_id, quota_remaining, reset_utc, state_log,
		penalty_count, penalty_last_ms, penalty_until_ms) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (bucket_id) DO UPDATE SET quota_remaining = excluded.quota_remaining, reset_utc = excluded.reset_utc,
		state_log = excluded.state_log, penalty_count = excluded.penalty_count,
		penalty_last_ms = excluded.penalty_last_ms, penalty_until_ms = excluded.penalty_until_ms`
	// sqlSetBucket writes a row read in this transaction whose reset_utc
	// stays: reset_utc is indexed, and an UPDATE that does not set it
	// leaves the index's page alone — one WAL frame less in the commit.
	sqlSetBucket = `UPDATE rate_limit_buckets SET quota_remaining = ?, state_log = ?,
		penalty_count = ?, penalty_last_ms = ?, penalty_until_ms = ? WHERE bucket_id = ?`
	sqlGetIdem = `SELECT body_sha256, status, response FROM idempotency_keys WHERE idem_key = ? AND created_utc > ?`
	sqlPutIdem = `INSERT INTO idempotency_keys (idem_key, body_sha256, status, response, created_utc) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (idem_key) DO UPDATE SET body_sha256 = excluded.body_sha256, status = excluded.status,
		response = excluded.response, created_utc = excluded.created_utc`
	sqlIngest = `INSERT INTO ride_ingest (ride_id, body_sha256, body_bytes, received_utc) VALUES (?, ?, ?, ?)`
)

// conn is what a tx runs its statements on: the writer's connection or the
// pool.
type conn interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// tx is a reference.Tx: the writer's, with prepared statements, or a
// read-only one on the pool for View.
type tx struct {
	q             conn
	stmts         map[string]*sql.Stmt // nil: plain queries on q
	begin, commit *sql.Stmt            // the writer's BEGIN IMMEDIATE and COMMIT
	readOnly      bool
	// rows are the buckets' rows as this transaction read or wrote them;
	// the writer's tx forgets them at each BEGIN.
	rows map[string]model.State
}

var _ reference.Tx = (*tx)(nil)

// prepared returns the writer's tx with every statement prepared on c.
func prepared(ctx context.Context, c *sql.Conn) (*tx, error) {
	t := &tx{q: c, stmts: map[string]*sql.Stmt{}, rows: map[string]model.State{}}
	for _, q := range []string{sqlGetBucket, sqlPutBucket, sqlSetBucket, sqlGetIdem, sqlPutIdem, sqlIngest} {
		st, err := c.PrepareContext(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		t.stmts[q] = st
	}
	var err error
	if t.begin, err = c.PrepareContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	if t.commit, err = c.PrepareContext(ctx, "COMMIT"); err != nil {
		return nil, fmt.Errorf("prepare: %w", err)
	}
	return t, nil
}

func (t *tx) row(ctx context.Context, q string, args ...any) *sql.Row {
	if st := t.stmts[q]; st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.q.QueryRowContext(ctx, q, args...)
}

func (t *tx) exec(ctx context.Context, q string, args ...any) error {
	if t.readOnly {
		return reference.ErrReadOnly
	}
	var err error
	if st := t.stmts[q]; st != nil {
		_, err = st.ExecContext(ctx, args...)
	} else {
		_, err = t.q.ExecContext(ctx, q, args...)
	}
	return busy(err)
}

// Bucket reads rate_limit_buckets.
func (t *tx) Bucket(ctx context.Context, id string) (model.State, error) {
	st := model.State{Found: true}
	err := t.row(ctx, sqlGetBucket, id).Scan(&st.Remaining, &st.Reset, &st.Log, &st.Penalty.Count, &st.Penalty.Last, &st.Penalty.Until)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		st = model.State{}
	case err != nil:
		return model.State{}, fmt.Errorf("read bucket: %w", busy(err))
	}
	t.saw(id, st)
	return st, nil
}

// saw remembers a bucket's row in the writer's transaction.
func (t *tx) saw(id string, st model.State) {
	if t.rows != nil {
		t.rows[id] = st
	}
}

// PutBucket upserts rate_limit_buckets (updates a row this transaction
// read, leaving an unchanged reset_utc out).
func (t *tx) PutBucket(ctx context.Context, id string, st model.State) error {
	var err error
	if old, ok := t.rows[id]; ok && old.Found && old.Reset == st.Reset {
		err = t.exec(ctx, sqlSetBucket, st.Remaining, st.Log, st.Penalty.Count, st.Penalty.Last, st.Penalty.Until, id)
	} else {
		err = t.exec(ctx, sqlPutBucket, id, st.Remaining, st.Reset, st.Log, st.Penalty.Count, st.Penalty.Last, st.Penalty.Until)
	}
	if err != nil {
		return fmt.Errorf("write bucket: %w", err)
	}
	st.Found = true
	t.saw(id, st)
	return nil
}

// Idempotency reads idempotency_keys.
func (t *tx) Idempotency(ctx context.Context, key string, body [32]byte, since int64) (reference.Replay, error) {
	var sha []byte
	rp := reference.Replay{Found: true}
	err := t.row(ctx, sqlGetIdem, key, since).Scan(&sha, &rp.Status, &rp.Response)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return reference.Replay{}, nil
	case err != nil:
		return reference.Replay{}, fmt.Errorf("idempotency lookup: %w", busy(err))
	}
	rp.SameBody = bytes.Equal(sha, body[:])
	return rp, nil
}

// PutIdempotency upserts idempotency_keys.
func (t *tx) PutIdempotency(ctx context.Context, key string, rec reference.Record) error {
	if err := t.exec(ctx, sqlPutIdem, key, rec.BodySHA256[:], rec.Status, rec.Response, rec.Created); err != nil {
		return fmt.Errorf("record idempotency: %w", err)
	}
	return nil
}

// Ingest inserts into ride_ingest.
func (t *tx) Ingest(ctx context.Context, r reference.Ride) error {
	if err := t.exec(ctx, sqlIngest, r.ID, r.BodySHA256[:], r.BodyBytes, r.Received); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	return nil
}
