package targetstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"

	"github.com/rlspec/rlspec/redact"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"

	_ "modernc.org/sqlite" // database/sql driver "sqlite"
)

// DBSeeder changes rows of rate_limit_buckets in a target's database
// (TARGET_DB: SQLite or PostgreSQL) in either contract schema.
type DBSeeder struct {
	db     *sql.DB
	where  string // TARGET_DB without credentials, for errors
	schema service.DBSchema
	window time.Duration
	now    func() time.Time
	// placeholder is the engine's n-th (1-based) bind parameter.
	placeholder func(n int) string
	// refillArg is last_refill's value for t (tokens schema).
	refillArg func(t time.Time) any
}

var _ scenario.StateSeeder = (*DBSeeder)(nil)

// OpenSeeder opens TARGET_DB (sqlite:/abs/path.db or postgres://…).
func OpenSeeder(tc service.Config, now func() time.Time) (*DBSeeder, error) {
	if tc.DBIsPostgres() {
		return OpenPostgresSeeder(tc.DB, tc.Schema, tc.Window, now)
	}
	path, err := tc.DBPath()
	if err != nil {
		return nil, err
	}
	return OpenSQLiteSeeder(path, tc.Schema, tc.Window, now)
}

// OpenSQLiteSeeder opens path with a busy timeout, so that seeding waits for
// the target's own writers instead of failing, and synchronous=NORMAL, so
// that a seeding commit holds the write lock without an fsync (in WAL mode
// it stays atomic and visible at once; only its durability across a power
// cut waits for the next checkpoint): the target's writers wait on it as
// briefly as they can.
func OpenSQLiteSeeder(path string, schema service.DBSchema, window time.Duration, now func() time.Time) (*DBSeeder, error) {
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=rw&_pragma=busy_timeout(10000)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open TARGET_DB %s: %w", path, err)
	}
	s := &DBSeeder{db: db, where: path, schema: schema, window: window, now: now,
		placeholder: func(int) string { return "?" },
		refillArg:   func(t time.Time) any { return t.Format("2006-01-02 15:04:05") }}
	return s, s.check()
}

// OpenPostgresSeeder opens a postgres:// URL. last_refill (tokens schema)
// is written as the contract's ISO-8601 text when the column is text, as a
// timestamp otherwise.
func OpenPostgresSeeder(dsn string, schema service.DBSchema, window time.Duration, now func() time.Time) (*DBSeeder, error) {
	where := redact.DSN(dsn)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("open TARGET_DB %s: %w", where, err)
	}
	s := &DBSeeder{db: db, where: where, schema: schema, window: window, now: now,
		placeholder: func(n int) string { return fmt.Sprintf("$%d", n) },
		refillArg:   func(t time.Time) any { return t }}
	if err := s.check(); err != nil {
		return nil, err
	}
	if schema == service.SchemaTokens {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var typ string
		err := db.QueryRowContext(ctx, `SELECT data_type FROM information_schema.columns
			WHERE table_name = 'rate_limit_buckets' AND column_name = 'last_refill'
			  AND table_schema = ANY (current_schemas(false)) LIMIT 1`).Scan(&typ)
		if err != nil {
			db.Close()
			return nil, fmt.Errorf("TARGET_DB %s: type of rate_limit_buckets.last_refill: %w", where, err)
		}
		if typ == "text" || strings.HasPrefix(typ, "character") {
			s.refillArg = func(t time.Time) any { return t.Format("2006-01-02 15:04:05") }
		}
	}
	return s, nil
}

// check verifies that the schema's table and columns exist; it closes the
// database when they do not.
func (s *DBSeeder) check() error {
	if s.now == nil {
		s.now = time.Now
	}
	col := "quota_remaining"
	if s.schema == service.SchemaTokens {
		col = "tokens"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s.db.ExecContext(ctx, "SELECT bucket_id, "+col+" FROM rate_limit_buckets LIMIT 0"); err != nil {
		s.db.Close()
		return fmt.Errorf("TARGET_DB %s has no rate_limit_buckets(bucket_id, %s) table for DB_SCHEMA=%s: %w", s.where, col, s.schema, err)
	}
	return nil
}

// Close closes the database.
func (s *DBSeeder) Close() error { return s.db.Close() }

// SetRemaining sets the bucket's remaining quota.
func (s *DBSeeder) SetRemaining(ctx context.Context, bucketID string, n int) error {
	col := "quota_remaining"
	if s.schema == service.SchemaTokens {
		col = "tokens"
	}
	return s.update(ctx, "seed remaining quota", bucketID, col, n)
}

// ExpireWindow moves the bucket's window into the past: reset_utc one second
// ago (prd), or last_refill more than a window ago (tokens).
func (s *DBSeeder) ExpireWindow(ctx context.Context, bucketID string) error {
	now := s.now().UTC()
	if s.schema == service.SchemaTokens {
		return s.update(ctx, "expire window", bucketID, "last_refill", s.refillArg(now.Add(-s.window-2*time.Second)))
	}
	return s.update(ctx, "expire window", bucketID, "reset_utc", now.Unix()-1)
}

// update sets one column of the bucket's row.
func (s *DBSeeder) update(ctx context.Context, what, bucketID, col string, v any) error {
	q := "UPDATE rate_limit_buckets SET " + col + " = " + s.placeholder(1) + " WHERE bucket_id = " + s.placeholder(2)
	res, err := s.db.ExecContext(ctx, q, v, bucketID)
	// An idle connection the database dropped (a restart, as in the
	// fail-mode scenarios) fails once and is discarded: try another. The
	// UPDATE sets a value, so running it again is harmless.
	for i := 0; i < 3 && connLost(err); i++ {
		res, err = s.db.ExecContext(ctx, q, v, bucketID)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return fmt.Errorf("%s: TARGET_DB has no rate_limit_buckets row with bucket_id %q after the bucket's first request; "+
			"the bucket_id must be the request's device_bucket verbatim, or ip:<addr> for the address fallback", what, bucketID)
	}
	return nil
}

// connLost reports whether err says the connection was lost rather than
// the statement refused: PostgreSQL's shutdown and connection errors.
func connLost(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P")
	}
	return err != nil && (errors.Is(err, driver.ErrBadConn) || pgconn.SafeToRetry(err))
}
