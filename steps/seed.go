package steps

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"time"

	"github.com/rlspec/rlspec/target"

	_ "modernc.org/sqlite" // database/sql driver "sqlite"
)

// SQLiteSeeder changes rows of rate_limit_buckets in a target's SQLite
// database (TARGET_DB) in either contract schema.
type SQLiteSeeder struct {
	db     *sql.DB
	schema target.DBSchema
	window time.Duration
	now    func() time.Time
}

var _ StateSeeder = (*SQLiteSeeder)(nil)

// OpenSQLiteSeeder opens path with a busy timeout, so that seeding waits for
// the target's own writers instead of failing.
func OpenSQLiteSeeder(path string, schema target.DBSchema, window time.Duration, now func() time.Time) (*SQLiteSeeder, error) {
	if now == nil {
		now = time.Now
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() + "?mode=rw&_pragma=busy_timeout(10000)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open TARGET_DB %s: %w", path, err)
	}
	col := "quota_remaining"
	if schema == target.SchemaTokens {
		col = "tokens"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := db.ExecContext(ctx, "SELECT bucket_id, "+col+" FROM rate_limit_buckets LIMIT 0"); err != nil {
		db.Close()
		return nil, fmt.Errorf("TARGET_DB %s has no rate_limit_buckets(bucket_id, %s) table for DB_SCHEMA=%s: %w", path, col, schema, err)
	}
	return &SQLiteSeeder{db: db, schema: schema, window: window, now: now}, nil
}

// Close closes the database.
func (s *SQLiteSeeder) Close() error { return s.db.Close() }

// SetRemaining sets the bucket's remaining quota.
func (s *SQLiteSeeder) SetRemaining(ctx context.Context, bucketID string, n int) error {
	q := "UPDATE rate_limit_buckets SET quota_remaining = ? WHERE bucket_id = ?"
	if s.schema == target.SchemaTokens {
		q = "UPDATE rate_limit_buckets SET tokens = ? WHERE bucket_id = ?"
	}
	return s.update(ctx, "seed remaining quota", bucketID, q, n, bucketID)
}

// ExpireWindow moves the bucket's window into the past: reset_utc one second
// ago (prd), or last_refill more than a window ago (tokens).
func (s *SQLiteSeeder) ExpireWindow(ctx context.Context, bucketID string) error {
	now := s.now().UTC()
	if s.schema == target.SchemaTokens {
		past := now.Add(-s.window - 2*time.Second).Format("2006-01-02 15:04:05")
		return s.update(ctx, "expire window", bucketID,
			"UPDATE rate_limit_buckets SET last_refill = ? WHERE bucket_id = ?", past, bucketID)
	}
	return s.update(ctx, "expire window", bucketID,
		"UPDATE rate_limit_buckets SET reset_utc = ? WHERE bucket_id = ?", now.Unix()-1, bucketID)
}

func (s *SQLiteSeeder) update(ctx context.Context, what, bucketID, q string, args ...any) error {
	res, err := s.db.ExecContext(ctx, q, args...)
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
