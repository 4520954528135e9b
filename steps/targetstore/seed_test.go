package targetstore

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/service"
)

// seederEngine opens an empty database of one engine and a seeder on it.
type seederEngine struct {
	name     string
	ddl      map[service.DBSchema]string
	insert   string // one row ('b', 499, $reset-or-refill)
	openDB   func(t *testing.T) (db *sql.DB, dsn string)
	openSeed func(dsn string, schema service.DBSchema, now func() time.Time) (*DBSeeder, error)
}

var sqliteEngine = seederEngine{
	name: "sqlite",
	ddl: map[service.DBSchema]string{
		service.SchemaPRD:    `CREATE TABLE rate_limit_buckets (bucket_id TEXT PRIMARY KEY, quota_remaining INT, reset_utc INT)`,
		service.SchemaTokens: `CREATE TABLE rate_limit_buckets (bucket_id TEXT PRIMARY KEY, tokens INTEGER NOT NULL, last_refill TEXT NOT NULL) STRICT`,
	},
	insert: `INSERT INTO rate_limit_buckets VALUES ('b', 499, ?)`,
	openDB: func(t *testing.T) (*sql.DB, string) {
		path := filepath.Join(t.TempDir(), "t.db")
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		return db, path
	},
	openSeed: func(path string, schema service.DBSchema, now func() time.Time) (*DBSeeder, error) {
		return OpenSQLiteSeeder(path, schema, time.Hour, now)
	},
}

// testSeederBothSchemas seeds and ages a row in either schema and checks
// the row, and the error naming a missing row.
func testSeederBothSchemas(t *testing.T, e seederEngine) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		schema service.DBSchema
		check  string
		want   string
	}{
		{service.SchemaPRD, `SELECT quota_remaining || '|' || reset_utc FROM rate_limit_buckets WHERE bucket_id = 'b'`, "7|1767323044"},
		{service.SchemaTokens, `SELECT tokens || '|' || last_refill FROM rate_limit_buckets WHERE bucket_id = 'b'`, "7|2026-01-02 02:04:03"},
	} {
		t.Run(string(tc.schema), func(t *testing.T) {
			db, dsn := e.openDB(t)
			defer db.Close()
			if _, err := db.Exec(e.ddl[tc.schema]); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(e.insert, map[service.DBSchema]any{service.SchemaPRD: now.Unix() + 3600, service.SchemaTokens: "2026-01-02 03:04:05"}[tc.schema]); err != nil {
				t.Fatal(err)
			}
			s, err := e.openSeed(dsn, tc.schema, func() time.Time { return now })
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			if err := s.SetRemaining(ctx, "b", 7); err != nil {
				t.Fatal(err)
			}
			if err := s.ExpireWindow(ctx, "b"); err != nil {
				t.Fatal(err)
			}
			var got string
			if err := db.QueryRow(tc.check).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("row = %s, want %s", got, tc.want)
			}
			err = s.SetRemaining(ctx, "ip:127.0.0.9", 1)
			if err == nil || !strings.Contains(err.Error(), "device_bucket verbatim") || !strings.Contains(err.Error(), "ip:<addr>") {
				t.Fatalf("missing row: err = %v", err)
			}
		})
	}
}

func TestSQLiteSeederBothSchemas(t *testing.T) { testSeederBothSchemas(t, sqliteEngine) }

func TestSQLiteSeederRejectsWrongSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE rate_limit_buckets (bucket_id TEXT PRIMARY KEY, tokens INT, last_refill TEXT)`); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSQLiteSeeder(path, service.SchemaPRD, time.Hour, nil); err == nil || !strings.Contains(err.Error(), "DB_SCHEMA=prd") {
		t.Fatalf("err = %v", err)
	}
}
