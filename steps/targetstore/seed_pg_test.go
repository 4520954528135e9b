package targetstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/reference/storetest"
	"github.com/rlspec/rlspec/service"
)

// TestPostgresSeederBothSchemas runs the seeding test on a throwaway
// PostgreSQL cluster: the prd schema, tokens with last_refill as text (the
// contract) and as timestamptz.
func TestPostgresSeederBothSchemas(t *testing.T) {
	c := storetest.Postgres(t)
	n := 0
	engine := seederEngine{
		name: "postgres",
		ddl: map[service.DBSchema]string{
			service.SchemaPRD:    `CREATE TABLE rate_limit_buckets (bucket_id TEXT PRIMARY KEY, quota_remaining INTEGER NOT NULL, reset_utc BIGINT NOT NULL)`,
			service.SchemaTokens: `CREATE TABLE rate_limit_buckets (bucket_id TEXT PRIMARY KEY, tokens INTEGER NOT NULL, last_refill TEXT NOT NULL)`,
		},
		insert: `INSERT INTO rate_limit_buckets VALUES ('b', 499, $1)`,
		openDB: func(t *testing.T) (*sql.DB, string) {
			n++
			dsn, err := c.CreateDatabase(context.Background(), fmt.Sprintf("seed_%d", n))
			if err != nil {
				t.Fatal(err)
			}
			db, err := sql.Open("pgx", dsn)
			if err != nil {
				t.Fatal(err)
			}
			return db, dsn
		},
		openSeed: func(dsn string, schema service.DBSchema, now func() time.Time) (*DBSeeder, error) {
			return OpenPostgresSeeder(dsn, schema, time.Hour, now)
		},
	}
	t.Run("text", func(t *testing.T) { testSeederBothSchemas(t, engine) })

	// last_refill as timestamptz: written as a timestamp, read back in UTC.
	tz := engine
	tz.ddl = map[service.DBSchema]string{service.SchemaTokens: `CREATE TABLE rate_limit_buckets (bucket_id TEXT PRIMARY KEY, tokens INTEGER NOT NULL, last_refill TIMESTAMPTZ NOT NULL)`}
	t.Run("timestamptz", func(t *testing.T) {
		db, dsn := tz.openDB(t)
		defer db.Close()
		if _, err := db.Exec(tz.ddl[service.SchemaTokens]); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO rate_limit_buckets VALUES ('b', 499, now())`); err != nil {
			t.Fatal(err)
		}
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		s, err := tz.openSeed(dsn, service.SchemaTokens, func() time.Time { return now })
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if err := s.ExpireWindow(context.Background(), "b"); err != nil {
			t.Fatal(err)
		}
		var got time.Time
		if err := db.QueryRow(`SELECT last_refill FROM rate_limit_buckets WHERE bucket_id = 'b'`).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if want := now.Add(-time.Hour - 2*time.Second); !got.Equal(want) {
			t.Fatalf("last_refill = %s, want %s", got.UTC(), want)
		}
	})

	// The database restarted (a fail-mode scenario): the seeder's idle
	// connection is dead, and seeding still works.
	t.Run("after a restart", func(t *testing.T) {
		db, dsn := engine.openDB(t)
		defer db.Close()
		for _, q := range []string{engine.ddl[service.SchemaPRD], `INSERT INTO rate_limit_buckets VALUES ('b', 499, 2000000000)`} {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		s, err := engine.openSeed(dsn, service.SchemaPRD, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		ctx := context.Background()
		if err := s.SetRemaining(ctx, "b", 5); err != nil {
			t.Fatal(err)
		}
		if err := c.Stop(); err != nil {
			t.Fatal(err)
		}
		if err := c.Restart(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s.SetRemaining(ctx, "b", 4); err != nil {
			t.Fatalf("seed after a restart: %v", err)
		}
	})

	t.Run("no password in errors", func(t *testing.T) {
		dsn := strings.Replace(c.DSN("nosuchdb"), "postgres@", "u:secretpw@", 1)
		_, err := OpenPostgresSeeder(dsn, service.SchemaPRD, time.Hour, nil)
		if err == nil || strings.Contains(err.Error(), "secretpw") {
			t.Fatalf("err = %v", err)
		}
	})
}
