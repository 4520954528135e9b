package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"sync"
	"time"

	"modernc.org/sqlite"

	"github.com/rlspec/rlspec/reference"
)

// Defaults of the store's options.
const (
	DefaultBusyTimeout = 10 * time.Second
	DefaultMaxBatch    = 256
)

// Option configures a Store.
type Option func(*Store)

// WithBusyTimeout sets SQLite's busy timeout (default 10s).
func WithBusyTimeout(d time.Duration) Option { return func(s *Store) { s.busyTimeout = d } }

// WithMaxBatch caps how many Updates share one transaction (default 256;
// 1 disables group commit).
func WithMaxBatch(n int) Option { return func(s *Store) { s.maxBatch = n } }

// Store is a reference.Store on one SQLite file. All writes go through one
// writer connection, committed by its callers in turn (group commit, see
// the package comment and writer.go). A Store is safe for concurrent use,
// and several processes may open the same file.
type Store struct {
	busyTimeout time.Duration
	maxBatch    int

	path string
	db   *sql.DB // pool for View and Ping

	mu         sync.Mutex
	idle       *sync.Cond // signalled when the lead ends
	queue      []*job     // waiting for a commit
	leading    bool       // a caller is committing
	closed     bool
	batchStats BatchStats

	// the writer, used by the leading caller only
	wconn   *sql.Conn
	wtx     *tx
	commits int
}

var _ reference.Store = (*Store)(nil)

// Open opens (creating if needed) the database at path, migrates it to the
// latest schema and prepares the writer.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	s := &Store{
		busyTimeout: DefaultBusyTimeout,
		maxBatch:    DefaultMaxBatch,
		path:        path,
	}
	s.idle = sync.NewCond(&s.mu)
	for _, o := range opts {
		o(s)
	}
	switch {
	case path == "":
		return nil, errors.New("open store: empty database path")
	case s.busyTimeout < 0:
		return nil, errors.New("open store: negative busy timeout")
	}
	s.maxBatch = max(s.maxBatch, 1)
	q := url.Values{}
	q.Add("_pragma", "busy_timeout("+strconv.FormatInt(s.busyTimeout.Milliseconds(), 10)+")")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	// The writer checkpoints between batches (checkpointEvery), not
	// inside a commit.
	q.Add("_pragma", "wal_autocheckpoint(0)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open store: %w", err)
	}
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(8)
	s.db = db
	if err := Migrate(ctx, db, LatestVersion()); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store: %w", busy(err))
	}
	if err := s.prepareWriter(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open store: %w", err)
	}
	return s, nil
}

func (s *Store) prepareWriter(ctx context.Context) error {
	c, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("writer conn: %w", err)
	}
	t, err := prepared(ctx, c)
	if err != nil {
		c.Close()
		return err
	}
	s.wconn, s.wtx = c, t
	return nil
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// DB exposes the connection pool for tests and state inspection.
func (s *Store) DB() *sql.DB { return s.db }

// Update runs fn in the writer's transaction (see reference.Store).
func (s *Store) Update(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	return s.submit(ctx, func(ctx context.Context) error { return fn(ctx, s.wtx) })
}

// View runs fn in a read transaction on a pool connection, beside the
// writer: in WAL mode it sees one snapshot of committed state and never
// waits for the writer.
func (s *Store) View(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	rtx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("view: %w", busy(err))
	}
	defer func() { _ = rtx.Rollback() }() // read-only: nothing to keep
	return fn(ctx, &tx{q: rtx, readOnly: true})
}

// Ping checks the database answers.
func (s *Store) Ping(ctx context.Context) error {
	var one int
	if err := s.db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		return fmt.Errorf("ping: %w", busy(err))
	}
	return nil
}

// Cleanup deletes expired buckets, idempotency records and ingest rows in
// one writer transaction.
func (s *Store) Cleanup(ctx context.Context, cut int64) (reference.CleanupStats, error) {
	var st reference.CleanupStats
	err := s.submit(ctx, func(ctx context.Context) error {
		for _, q := range []struct {
			sql string
			n   *int64
		}{
			{`DELETE FROM rate_limit_buckets WHERE reset_utc < ?`, &st.Buckets},
			{`DELETE FROM idempotency_keys WHERE created_utc <= ?`, &st.IdempotencyKeys},
			{`DELETE FROM ride_ingest WHERE received_utc <= ?`, &st.Rides},
		} {
			res, err := s.wconn.ExecContext(ctx, q.sql, cut)
			if err != nil {
				return fmt.Errorf("cleanup: %w", err)
			}
			*q.n, _ = res.RowsAffected()
		}
		return nil
	})
	if err != nil {
		return reference.CleanupStats{}, err
	}
	return st, nil
}

// Close waits for the Updates already queued to commit and closes the
// database; later Updates get reference.ErrClosed. It may be called more
// than once.
func (s *Store) Close() error {
	s.mu.Lock()
	first := !s.closed
	s.closed = true
	for s.leading {
		s.idle.Wait()
	}
	s.mu.Unlock()
	if first {
		_ = s.wconn.Close()
	}
	return s.db.Close()
}

// busy maps SQLite's BUSY/LOCKED to reference.ErrBusy (keeping the original
// text).
func busy(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		if c := se.Code() & 0xff; c == 5 || c == 6 { // SQLITE_BUSY, SQLITE_LOCKED
			return fmt.Errorf("%w: %v", reference.ErrBusy, err)
		}
	}
	return err
}
