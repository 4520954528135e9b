package targetstore

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/service"
)

// AgePenalty moves the reference's violation record, or spec/003's
// rate_limit_penalties row, into the past; a key with neither is an error
// naming both layouts.
func TestSQLiteSeederAgesPenalty(t *testing.T) {
	ctx := context.Background()
	db, path := sqliteEngine.openDB(t)
	for _, q := range []string{
		`CREATE TABLE rate_limit_buckets (bucket_id TEXT PRIMARY KEY, quota_remaining INT, reset_utc INT, penalty_last_ms INT, penalty_until_ms INT)`,
		`INSERT INTO rate_limit_buckets VALUES ('user:k', 0, 1, 1800000000000, 1800000005000)`,
		`CREATE TABLE rate_limit_penalties (user_id TEXT, resource TEXT, last_violation_at INT, penalty_until INT)`,
		`INSERT INTO rate_limit_penalties VALUES ('s', 'api', 1800000000, 1800000005)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	seed, err := sqliteEngine.openSeed(path, service.SchemaPRD, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer seed.Close()
	if err := seed.AgePenalty(ctx, "k", 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := seed.AgePenalty(ctx, "s", 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	var last, until, specLast int64
	if err := db.QueryRowContext(ctx, `SELECT penalty_last_ms, penalty_until_ms FROM rate_limit_buckets`).Scan(&last, &until); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, `SELECT last_violation_at FROM rate_limit_penalties`).Scan(&specLast); err != nil {
		t.Fatal(err)
	}
	if last != 1800000000000-86400000 || until != 0 || specLast != 1800000000-86400 {
		t.Fatalf("aged: last %d until %d, spec/003 row %d", last, until, specLast)
	}
	if err := seed.AgePenalty(ctx, "nobody", time.Hour); err == nil || !strings.Contains(err.Error(), "rate_limit_penalties") {
		t.Fatalf("a key without a record: %v", err)
	}
}
