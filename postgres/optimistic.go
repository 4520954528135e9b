package postgres

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// The optimistic path serves the common Update — one bucket read, its new
// state written, ride rows ingested — in one statement and one round trip,
// where the locked path (tx.go) needs two. fn runs against the bucket's
// state as this process last saw it (stateCache; on a miss, a plain read),
// and the statement writes only if the row still holds that state:
//
//	WITH l AS (SELECT pg_advisory_xact_lock(2, hashtext($1))),
//	     u AS (UPDATE rate_limit_buckets SET … FROM l
//	           WHERE bucket_id = $1 AND (state columns) = (expected) RETURNING 1),
//	     r0 AS (INSERT INTO ride_ingest … SELECT … FROM u)
//	SELECT count(*) FROM u
//
// The statement takes the bucket's advisory lock, so it never lands inside
// a locked transaction's read-then-write; under READ COMMITTED an UPDATE
// whose row changed while it waited re-checks its WHERE on the newest row
// version, and an INSERT … ON CONFLICT DO NOTHING (a bucket expected
// absent) sees rows committed meanwhile. No row means another writer (an
// instance, retention, TARGET_DB seeding) got there first: nothing was
// written, and fn runs again on the locked path. A decision that writes
// nothing is checked the same way with a plain read of the row, unless its
// state was read in this attempt. So every decision is made on the state
// the database holds when it takes effect, as on the locked path.
//
// An fn that fails on the state it was given runs again on the locked path
// too (the state may have been stale), and its error there is the answer.
// An fn that asks for more (an idempotency record, a second bucket, a write
// without a read) falls back to the locked path before anything is sent.

// errFallback ends an optimistic attempt that must run on the locked path.
var errFallback = errors.New("postgres: needs the locked path")

// optTx is a reference.Tx of one optimistic attempt; it only collects what
// fn reads and writes, and commit sends it.
type optTx struct {
	s      *Store
	bucket string      // the bucket read; "" none yet
	expect model.State // its state as fn saw it
	fresh  bool        // expect was read from the database in this attempt
	put    *model.State
	rides  []reference.Ride
	// readErr is the plain read's error; fn's other errors may come from
	// a stale state and are the locked path's to decide.
	readErr error
}

var _ reference.Tx = (*optTx)(nil)

func (t *optTx) Bucket(ctx context.Context, id string) (model.State, error) {
	switch {
	case t.bucket == id && t.put == nil:
		return t.expect, nil
	case t.bucket != "":
		return model.State{}, errFallback
	}
	if st, ok := t.s.cache.get(id); ok {
		t.bucket, t.expect = id, st
		return st, nil
	}
	st, err := scanState(t.s.pool.QueryRow(ctx, sqlGetBucket, id))
	if err != nil {
		t.readErr = fmt.Errorf("read bucket: %w", classify(err))
		return model.State{}, t.readErr
	}
	t.bucket, t.expect, t.fresh = id, st, true
	return st, nil
}

func (t *optTx) PutBucket(_ context.Context, id string, st model.State) error {
	if id != t.bucket || t.put != nil {
		return errFallback
	}
	st.Found = true
	t.put = &st
	return nil
}

func (t *optTx) Idempotency(context.Context, string, [32]byte, int64) (reference.Replay, error) {
	return reference.Replay{}, errFallback
}

func (t *optTx) PutIdempotency(context.Context, string, reference.Record) error {
	return errFallback
}

func (t *optTx) Ingest(_ context.Context, r reference.Ride) error {
	t.rides = append(t.rides, r)
	return nil
}

// commit sends the attempt's one statement. It returns errStale when the
// row no longer holds the expected state (nothing was written) and
// errFallback when the writes need the locked path.
func (t *optTx) commit(ctx context.Context) error {
	switch {
	case t.put == nil && len(t.rides) > 0:
		return errFallback
	case t.put == nil && (t.bucket == "" || t.fresh):
		return nil // nothing written, and what was read is current
	}
	sql, args := t.statement()
	var n int
	if err := t.s.pool.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
		t.s.cache.forget(t.bucket)
		return classify(err)
	}
	if n == 0 {
		t.s.cache.forget(t.bucket)
		return errStale
	}
	if t.put != nil {
		t.s.cache.put(t.bucket, *t.put)
	}
	return nil
}

// errStale is an optimistic attempt whose bucket changed under it.
var errStale = errors.New("postgres: bucket changed since it was read")

// statement is commit's SQL and its arguments: the conditional write (or,
// with nothing to write, the check that the row still holds the expected
// state) and the rides that depend on it. The text depends only on the
// attempt's shape and is built once per shape.
func (t *optTx) statement() (string, []any) {
	sh := shape{write: t.put != nil, found: t.expect.Found, rides: len(t.rides)}
	args := make([]any, 0, 1+2*len(stateTypes)+4*len(t.rides))
	args = append(args, t.bucket)
	if !sh.write || sh.found {
		args = append(args, stateArgs(t.expect)...)
	}
	if sh.write {
		args = append(args, stateArgs(*t.put)...)
	}
	for _, r := range t.rides {
		args = append(args, r.ID, r.BodySHA256[:], r.BodyBytes, r.Received)
	}
	if q, ok := statements.Load(sh); ok {
		return q.(string), args
	}
	q := sh.sql()
	statements.Store(sh, q)
	return q, args
}

// shape is what an optimistic statement's text depends on: whether it
// writes, whether the row is expected to exist, how many rides it ingests.
type shape struct {
	write, found bool
	rides        int
}

// statements holds the text of every shape built so far (a handful).
var statements sync.Map // shape → string

// sql is the statement of shape sh, its parameters in statement's order of
// arguments: the bucket, the expected state (a check, or an update), the
// state written, each ride's four columns.
func (sh shape) sql() string {
	n := 1
	param := func(typ string) string {
		n++
		return "$" + strconv.Itoa(n) + "::" + typ
	}
	list := func() string {
		ps := make([]string, len(stateTypes))
		for i, typ := range stateTypes {
			ps[i] = param(typ)
		}
		return strings.Join(ps, ", ")
	}
	if !sh.write {
		return `SELECT count(*) FROM rate_limit_buckets WHERE bucket_id = $1 AND (` + stateColumns + `) = (` + list() + `)`
	}
	var b strings.Builder
	b.WriteString(`WITH l AS (SELECT pg_advisory_xact_lock(` + strconv.Itoa(lockBucket) + `, hashtext($1))), u AS (`)
	if sh.found {
		expect := list()
		b.WriteString(`UPDATE rate_limit_buckets SET (` + stateColumns + `) = (` + list() + `) FROM l
			WHERE bucket_id = $1 AND (` + stateColumns + `) = (` + expect + `) RETURNING 1)`)
	} else {
		b.WriteString(`INSERT INTO rate_limit_buckets (bucket_id, ` + stateColumns + `) SELECT $1, ` + list() + ` FROM l
			ON CONFLICT (bucket_id) DO NOTHING RETURNING 1)`)
	}
	for i := range sh.rides {
		fmt.Fprintf(&b, `, r%d AS (INSERT INTO ride_ingest (ride_id, body_sha256, body_bytes, received_utc) SELECT %s, %s, %s, %s FROM u)`,
			i, param("text"), param("bytea"), param("int"), param("bigint"))
	}
	b.WriteString(` SELECT count(*) FROM u`)
	return b.String()
}
