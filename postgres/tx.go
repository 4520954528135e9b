package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// Advisory lock classes: idempotency keys before buckets (see doc.go).
const (
	lockIdem   = 1
	lockBucket = 2
)

const (
	sqlBegin     = `BEGIN ISOLATION LEVEL READ COMMITTED`
	sqlBeginRO   = `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY`
	sqlCommit    = `COMMIT`
	sqlRollback  = `ROLLBACK`
	sqlLock      = `SELECT pg_advisory_xact_lock($1::int, hashtext($2))`
	sqlGetBucket = `SELECT ` + stateColumns + ` FROM rate_limit_buckets WHERE bucket_id = $1`
	sqlPutBucket = `INSERT INTO rate_limit_buckets (bucket_id, ` + stateColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (bucket_id) DO UPDATE SET quota_remaining = EXCLUDED.quota_remaining, reset_utc = EXCLUDED.reset_utc,
		state_log = EXCLUDED.state_log, penalty_count = EXCLUDED.penalty_count,
		penalty_last_ms = EXCLUDED.penalty_last_ms, penalty_until_ms = EXCLUDED.penalty_until_ms`
	sqlGetIdem = `SELECT body_sha256, status, response FROM idempotency_keys WHERE idem_key = $1 AND created_utc > $2`
	sqlPutIdem = `INSERT INTO idempotency_keys (idem_key, body_sha256, status, response, created_utc) VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (idem_key) DO UPDATE SET body_sha256 = EXCLUDED.body_sha256, status = EXCLUDED.status,
		response = EXCLUDED.response, created_utc = EXCLUDED.created_utc`
	sqlIngest = `INSERT INTO ride_ingest (ride_id, body_sha256, body_bytes, received_utc) VALUES ($1, $2, $3, $4)`
)

// stmt is one statement waiting to be sent.
type stmt struct {
	sql  string
	args []any
}

// tx is a reference.Tx on one pooled connection. It pipelines: statements
// that return nothing (BEGIN, key locks, writes) wait in pending and go out
// in one round trip with the next read or with COMMIT, in order, so a
// check-and-spend costs two round trips (BEGIN, lock, read; write, ingest,
// COMMIT) besides the commit's flush. Each statement still runs alone and in
// order at the server: under READ COMMITTED a read sent after its key's lock
// sees everything committed before the lock was granted.
type tx struct {
	conn     *pgxpool.Conn
	readOnly bool
	pending  []stmt
	begun    bool
	locked   map[lockKey]bool
	// states are the buckets' states as last read or written here; the
	// store's cache learns them once the transaction commits.
	states map[string]model.State
}

type lockKey struct {
	class int
	key   string
}

var _ reference.Tx = (*tx)(nil)

func newTx(conn *pgxpool.Conn, readOnly bool) *tx {
	t := &tx{conn: conn, readOnly: readOnly}
	begin := sqlBegin
	if readOnly {
		begin = sqlBeginRO
	}
	t.pending = append(t.pending, stmt{sql: begin})
	t.begun = true
	return t
}

// lock queues the key's advisory lock once per transaction (writers only).
func (t *tx) lock(class int, key string) {
	if t.readOnly {
		return
	}
	k := lockKey{class, key}
	if t.locked[k] {
		return
	}
	if t.locked == nil {
		t.locked = map[lockKey]bool{}
	}
	t.locked[k] = true
	t.pending = append(t.pending, stmt{sqlLock, []any{class, key}})
}

// flush sends the pending statements, then last when given, in one round
// trip; scan reads last's row.
func (t *tx) flush(ctx context.Context, last *stmt, scan func(pgx.Row) error) error {
	b := &pgx.Batch{}
	for _, s := range t.pending {
		b.Queue(s.sql, s.args...)
	}
	if last != nil {
		b.Queue(last.sql, last.args...)
	}
	n := len(t.pending)
	t.pending = t.pending[:0]
	if b.Len() == 0 {
		return nil
	}
	br := t.conn.SendBatch(ctx, b)
	var err error
	for i := 0; i < n && err == nil; i++ {
		_, err = br.Exec()
	}
	if err == nil && last != nil {
		err = scan(br.QueryRow())
	}
	return errors.Join(classify(err), classify(br.Close()))
}

func (t *tx) write(s stmt) error {
	if t.readOnly {
		return reference.ErrReadOnly
	}
	t.pending = append(t.pending, s)
	return nil
}

// commit sends what is pending with COMMIT.
func (t *tx) commit(ctx context.Context) error {
	t.pending = append(t.pending, stmt{sql: sqlCommit})
	return t.flush(ctx, nil, nil)
}

// rollback ends a transaction whose fn failed (or whose round trip did).
func (t *tx) rollback(ctx context.Context) error {
	t.pending = t.pending[:0]
	_, err := t.conn.Exec(context.WithoutCancel(ctx), sqlRollback)
	return err
}

// Bucket locks the bucket (in an Update) and reads it.
func (t *tx) Bucket(ctx context.Context, id string) (model.State, error) {
	t.lock(lockBucket, id)
	var st model.State
	err := t.flush(ctx, &stmt{sqlGetBucket, []any{id}}, func(r pgx.Row) error {
		var err error
		st, err = scanState(r)
		return err
	})
	if err != nil {
		return model.State{}, fmt.Errorf("read bucket: %w", err)
	}
	t.seen(id, st)
	return st, nil
}

func (t *tx) seen(id string, st model.State) {
	if t.states == nil {
		t.states = map[string]model.State{}
	}
	t.states[id] = st
}

// stateColumns are a bucket's model.State columns, in stateArgs' order.
const stateColumns = `quota_remaining, reset_utc, state_log, penalty_count, penalty_last_ms, penalty_until_ms`

// stateTypes are stateColumns' SQL types.
var stateTypes = [...]string{"int", "bigint", "text", "int", "bigint", "bigint"}

func stateArgs(st model.State) []any {
	return []any{st.Remaining, st.Reset, st.Log, st.Penalty.Count, st.Penalty.Last, st.Penalty.Until}
}

// scanState reads a row of stateColumns; no row is the zero State.
func scanState(r pgx.Row) (model.State, error) {
	st := model.State{Found: true}
	err := r.Scan(&st.Remaining, &st.Reset, &st.Log, &st.Penalty.Count, &st.Penalty.Last, &st.Penalty.Until)
	if errors.Is(err, pgx.ErrNoRows) {
		return model.State{}, nil
	}
	if err != nil {
		return model.State{}, err
	}
	return st, nil
}

// PutBucket queues the upsert (locking the bucket if it was not read first).
func (t *tx) PutBucket(_ context.Context, id string, st model.State) error {
	t.lock(lockBucket, id)
	st.Found = true
	t.seen(id, st)
	return t.write(stmt{sqlPutBucket, append([]any{id}, stateArgs(st)...)})
}

// Idempotency locks the key (in an Update) and reads its live record.
func (t *tx) Idempotency(ctx context.Context, key string, body [32]byte, since int64) (reference.Replay, error) {
	t.lock(lockIdem, key)
	var sha []byte
	rp := reference.Replay{Found: true}
	err := t.flush(ctx, &stmt{sqlGetIdem, []any{key, since}}, func(r pgx.Row) error {
		err := r.Scan(&sha, &rp.Status, &rp.Response)
		if errors.Is(err, pgx.ErrNoRows) {
			rp = reference.Replay{}
			return nil
		}
		return err
	})
	if err != nil {
		return reference.Replay{}, fmt.Errorf("idempotency lookup: %w", err)
	}
	rp.SameBody = rp.Found && bytes.Equal(sha, body[:])
	return rp, nil
}

// PutIdempotency queues the record's upsert.
func (t *tx) PutIdempotency(_ context.Context, key string, rec reference.Record) error {
	t.lock(lockIdem, key)
	return t.write(stmt{sqlPutIdem, []any{key, rec.BodySHA256[:], rec.Status, rec.Response, rec.Created}})
}

// Ingest queues the ride row.
func (t *tx) Ingest(_ context.Context, r reference.Ride) error {
	return t.write(stmt{sqlIngest, []any{r.ID, r.BodySHA256[:], r.BodyBytes, r.Received}})
}
