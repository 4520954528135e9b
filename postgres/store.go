package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/rlspec/rlspec/reference"
)

// Store is a reference.Store on one PostgreSQL database.
type Store struct {
	pool   *pgxpool.Pool
	cache  *stateCache
	closed atomic.Bool
}

var _ reference.Store = (*Store)(nil)

type options struct {
	maxConns    int32
	busyTimeout time.Duration
	cacheSize   int
	tracer      pgx.QueryTracer // the benchmarks' recorder; nil in use
}

// Option sets a default of Open.
type Option func(*options) error

// WithMaxConns bounds the connection pool (default 32).
func WithMaxConns(n int) Option {
	return func(o *options) error {
		if n < 1 || n > 10000 {
			return fmt.Errorf("max connections %d out of [1, 10000]", n)
		}
		o.maxConns = int32(n)
		return nil
	}
}

// WithBusyTimeout bounds how long a transaction waits for a lock or a
// statement runs before the Update fails with reference.ErrBusy (default 5s).
func WithBusyTimeout(d time.Duration) Option {
	return func(o *options) error {
		if d <= 0 {
			return fmt.Errorf("busy timeout must be positive, got %s", d)
		}
		o.busyTimeout = d
		return nil
	}
}

// WithStateCache sets how many buckets' last-seen states the store keeps
// for its one-round-trip optimistic Updates (optimistic.go; default
// 65,536); 0 runs every Update on the locked path.
func WithStateCache(n int) Option {
	return func(o *options) error {
		if n < 0 {
			return fmt.Errorf("state cache size %d is negative", n)
		}
		o.cacheSize = n
		return nil
	}
}

// Open connects to dsn (postgres://…), creates the tables when absent and
// returns the store.
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	o := options{maxConns: 32, busyTimeout: 5 * time.Second, cacheSize: 1 << 16}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, fmt.Errorf("postgres store: %w", err)
		}
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, errors.New("postgres store: DATABASE_URL is not a PostgreSQL connection string")
	}
	cfg.MaxConns = o.maxConns
	cfg.ConnConfig.Tracer = o.tracer
	ms := strconv.FormatInt(o.busyTimeout.Milliseconds(), 10)
	cfg.ConnConfig.RuntimeParams["lock_timeout"] = ms
	cfg.ConnConfig.RuntimeParams["statement_timeout"] = ms
	cfg.ConnConfig.RuntimeParams["synchronous_commit"] = "on" // an acknowledged decision is durable
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres store: %w", err)
	}
	s := &Store{pool: pool, cache: newStateCache(o.cacheSize)}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return s, nil
}

// Update runs fn in one statement when it can (optimistic.go), otherwise
// in one READ COMMITTED transaction whose keys are locked as fn reads them
// (see the package comment).
func (s *Store) Update(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	if s.closed.Load() {
		return reference.ErrClosed
	}
	if s.cache.max > 0 {
		wrote, err := s.optimistic(ctx, fn)
		switch {
		case errors.Is(err, errFallback), errors.Is(err, errStale):
		case errors.Is(err, reference.ErrUnavailable) && !wrote:
			// nothing was sent to be written: run as a locked Update,
			// which reconnects and retries once (run)
		case errors.Is(err, reference.ErrUnavailable):
			s.pool.Reset() // the write's outcome is unknown: no retry
			return err
		default:
			return err
		}
	}
	return s.run(ctx, false, fn)
}

// optimistic runs fn once on an optTx and sends what it wrote; wrote tells
// whether a write was sent (an error then leaves its outcome unknown).
func (s *Store) optimistic(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) (wrote bool, err error) {
	t := &optTx{s: s}
	if err := fn(ctx, t); err != nil {
		if t.readErr != nil {
			return false, t.readErr
		}
		s.cache.forget(t.bucket)
		return false, errFallback
	}
	return t.put != nil, t.commit(ctx)
}

// View runs fn on committed state (one snapshot); writes fail with
// reference.ErrReadOnly.
func (s *Store) View(ctx context.Context, fn func(ctx context.Context, tx reference.Tx) error) error {
	return s.run(ctx, true, fn)
}

func (s *Store) run(ctx context.Context, readOnly bool, fn func(ctx context.Context, tx reference.Tx) error) error {
	if s.closed.Load() {
		return reference.ErrClosed
	}
	committing, err := s.runOnce(ctx, readOnly, fn)
	if errors.Is(err, reference.ErrUnavailable) {
		// Every pooled connection may be dead (the server restarted); drop
		// them and, when the transaction never reached its commit (so
		// nothing of it is stored), run it once more on a new one.
		s.pool.Reset()
		if !committing && ctx.Err() == nil {
			_, err = s.runOnce(ctx, readOnly, fn)
		}
	}
	return err
}

// runOnce runs fn in one transaction on one pooled connection; committing
// tells whether the error came from the commit, whose outcome is unknown.
func (s *Store) runOnce(ctx context.Context, readOnly bool, fn func(ctx context.Context, tx reference.Tx) error) (committing bool, err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return false, classify(err)
	}
	defer conn.Release()
	t := newTx(conn, readOnly)
	if err := fn(ctx, t); err != nil {
		return false, classify(errors.Join(err, t.rollback(ctx)))
	}
	if err := t.commit(ctx); err != nil {
		return true, classify(errors.Join(err, t.rollback(ctx)))
	}
	for id, st := range t.states {
		s.cache.put(id, st)
	}
	return false, nil
}

// Cleanup deletes expired buckets and old idempotency records and rides.
func (s *Store) Cleanup(ctx context.Context, cut int64) (reference.CleanupStats, error) {
	if s.closed.Load() {
		return reference.CleanupStats{}, reference.ErrClosed
	}
	var st reference.CleanupStats
	for _, d := range []struct {
		sql string
		n   *int64
	}{
		{`DELETE FROM rate_limit_buckets WHERE reset_utc < $1`, &st.Buckets},
		{`DELETE FROM idempotency_keys WHERE created_utc <= $1`, &st.IdempotencyKeys},
		{`DELETE FROM ride_ingest WHERE received_utc <= $1`, &st.Rides},
	} {
		tag, err := s.pool.Exec(ctx, d.sql, cut)
		if err != nil {
			return st, fmt.Errorf("cleanup: %w", classify(err))
		}
		*d.n = tag.RowsAffected()
	}
	return st, nil
}

// Ping checks the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if s.closed.Load() {
		return reference.ErrClosed
	}
	return classify(s.pool.Ping(ctx))
}

// Close closes the pool. It may be called more than once.
func (s *Store) Close() error {
	if s.closed.CompareAndSwap(false, true) {
		s.pool.Close()
	}
	return nil
}

// classify maps lock and statement timeouts to reference.ErrBusy, and a
// server that cannot be reached (down, shutting down, restarting, a
// connection lost, a database that lets no session in) to
// reference.ErrUnavailable.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var pe *pgconn.PgError
	var ce *pgconn.ConnectError
	if errors.As(err, &pe) {
		switch {
		case pe.Code == "55P03", pe.Code == "57014", pe.Code == "40P01": // lock_not_available, query_canceled (statement_timeout), deadlock_detected
			return fmt.Errorf("%w: %s", reference.ErrBusy, pe.Message)
		case pe.Code == "25006": // read_only_sql_transaction
			return fmt.Errorf("%w: %s", reference.ErrReadOnly, pe.Message)
		case strings.HasPrefix(pe.Code, "08"), pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03", // connection exception, admin/crash shutdown, cannot connect now
			pe.Code == "55000" && errors.As(err, &ce): // at connect: the database is not accepting connections (ALLOW_CONNECTIONS false)
			return fmt.Errorf("%w: %s", reference.ErrUnavailable, pe.Message)
		}
		return err
	}
	var ne net.Error
	if errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		pgconn.SafeToRetry(err) || strings.Contains(err.Error(), "conn closed") {
		return fmt.Errorf("%w: %w", reference.ErrUnavailable, err)
	}
	return err
}
