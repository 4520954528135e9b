package sqlite_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/reference/storetest"
	"github.com/rlspec/rlspec/sqlite"
)

func open(t testing.TB, opts ...sqlite.Option) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "rl.db"), opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestStore runs the store behaviour suite against SQLite, with group
// commit and without.
func TestStore(t *testing.T) {
	t.Run("group-commit", func(t *testing.T) {
		storetest.Run(t, func(t testing.TB) reference.Store { return open(t) })
	})
	t.Run("one-per-transaction", func(t *testing.T) {
		storetest.Run(t, func(t testing.TB) reference.Store { return open(t, sqlite.WithMaxBatch(1)) })
	})
}

// TestShared runs the shared-database suite on several stores of one file,
// as several processes hold it.
func TestShared(t *testing.T) {
	storetest.RunShared(t, storetest.OnOneFile(func(path string) (reference.Store, error) {
		return sqlite.Open(context.Background(), path)
	}))
}

func put(ctx context.Context, tx reference.Tx) error {
	return tx.PutBucket(ctx, "b", model.State{Found: true, Remaining: 1, Reset: 1})
}

// A database locked by another writer past the busy timeout is ErrBusy,
// for one Update and for a whole batch at once; none is applied.
func TestBusy(t *testing.T) {
	s := open(t, sqlite.WithBusyTimeout(50*time.Millisecond))
	ctx := context.Background()
	other, err := sql.Open("sqlite", "file:"+s.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, put); !errors.Is(err, reference.ErrBusy) {
		t.Fatalf("update under a held write lock: %v, want ErrBusy", err)
	}
	errs := make(chan error, 20)
	for range 20 {
		go func() { errs <- s.Update(ctx, put) }()
	}
	for range 20 {
		if err := <-errs; !errors.Is(err, reference.ErrBusy) {
			t.Fatalf("concurrent update under a held lock: %v", err)
		}
	}
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, put); err != nil {
		t.Fatalf("after the lock is released: %v", err)
	}
}

// The schema is FR-1's, STRICT, in WAL mode; migrations go down and up.
func TestMigrationsUpAndDown(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	tables := func() int {
		var n int
		if err := s.DB().QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table' AND name IN ('rate_limit_buckets','idempotency_keys','ride_ingest')`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if tables() != 3 {
		t.Fatal("tables missing after Open")
	}
	var schema string
	if err := s.DB().QueryRow(`SELECT sql FROM sqlite_master WHERE name='rate_limit_buckets'`).Scan(&schema); err != nil ||
		!bytes.Contains([]byte(schema), []byte("STRICT")) || !bytes.Contains([]byte(schema), []byte("quota_remaining INTEGER NOT NULL")) {
		t.Fatalf("schema %q %v", schema, err)
	}
	if err := sqlite.Migrate(ctx, s.DB(), 0); err != nil {
		t.Fatal(err)
	}
	if tables() != 0 {
		t.Fatal("tables left after down")
	}
	if err := sqlite.Migrate(ctx, s.DB(), sqlite.LatestVersion()); err != nil {
		t.Fatal(err)
	}
	if tables() != 3 {
		t.Fatal("tables missing after up")
	}
	if err := sqlite.Migrate(ctx, s.DB(), sqlite.LatestVersion()+1); err == nil {
		t.Fatal("migrated past the latest version")
	}
	var mode, sync string
	if err := s.DB().QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode %q %v", mode, err)
	}
	if err := s.DB().QueryRow("PRAGMA synchronous").Scan(&sync); err != nil || sync != "2" {
		t.Fatalf("synchronous %q %v, want 2 (FULL)", sync, err)
	}
}

func TestOpenRejectsBadOptions(t *testing.T) {
	if _, err := sqlite.Open(context.Background(), ""); err == nil {
		t.Error("empty path accepted")
	}
	if _, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "x.db"), sqlite.WithBusyTimeout(-1)); err == nil {
		t.Error("negative busy timeout accepted")
	}
}

// TestPanickingUpdate: an Update that panics reaches its caller, writes
// nothing, and the store goes on serving (the lead it held is passed on).
func TestPanickingUpdate(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the Update's panic did not reach its caller")
			}
		}()
		_ = s.Update(ctx, func(ctx context.Context, tx reference.Tx) error {
			if err := tx.PutBucket(ctx, "b", model.State{Remaining: 1, Reset: 9}); err != nil {
				return err
			}
			panic("boom")
		})
	}()
	if err := s.Update(ctx, func(ctx context.Context, tx reference.Tx) error {
		st, err := tx.Bucket(ctx, "b")
		if err == nil && st.Found {
			return errors.New("the panicking Update's write was kept")
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
