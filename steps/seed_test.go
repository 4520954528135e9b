package steps

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/target"
)

func TestSQLiteSeederBothSchemas(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		schema target.DBSchema
		ddl    string
		check  string
		want   string
	}{
		{target.SchemaPRD, `CREATE TABLE rate_limit_buckets (bucket_id TEXT PRIMARY KEY, quota_remaining INT, reset_utc INT)`,
			`SELECT quota_remaining || '|' || reset_utc FROM rate_limit_buckets WHERE bucket_id = 'b'`, "7|1767323044"},
		{target.SchemaTokens, `CREATE TABLE rate_limit_buckets (bucket_id TEXT PRIMARY KEY, tokens INTEGER NOT NULL, last_refill TEXT NOT NULL) STRICT`,
			`SELECT tokens || '|' || last_refill FROM rate_limit_buckets WHERE bucket_id = 'b'`, "7|2026-01-02 02:04:03"},
	} {
		t.Run(string(tc.schema), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.db")
			db, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(tc.ddl); err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(`INSERT INTO rate_limit_buckets VALUES ('b', 499, ?)`, map[target.DBSchema]any{target.SchemaPRD: now.Unix() + 3600, target.SchemaTokens: "2026-01-02 03:04:05"}[tc.schema]); err != nil {
				t.Fatal(err)
			}
			s, err := OpenSQLiteSeeder(path, tc.schema, time.Hour, func() time.Time { return now })
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
	if _, err := OpenSQLiteSeeder(path, target.SchemaPRD, time.Hour, nil); err == nil || !strings.Contains(err.Error(), "DB_SCHEMA=prd") {
		t.Fatalf("err = %v", err)
	}
}
