package postgres

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/internal/pgcluster/pgtest"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/reference/storetest"
)

// pg is this test binary's PostgreSQL server; each store gets a database
// of its own, numbered by dbs.
var (
	pg  pgtest.Shared
	dbs atomic.Int64
)

func TestMain(m *testing.M) {
	pgtest.Main(m, "postgres tests", &pg, pgcluster.WithSetting("max_connections", "300"))
}

// newDatabase creates an empty database and returns its DSN.
func newDatabase(tb testing.TB) string {
	tb.Helper()
	dsn, err := pg.Cluster(tb).CreateDatabase(context.Background(), fmt.Sprintf("store_%d_%d", os.Getpid(), dbs.Add(1)))
	if err != nil {
		tb.Fatal(err)
	}
	return dsn
}

func open(tb testing.TB, opts ...Option) *Store {
	tb.Helper()
	return openDSN(tb, newDatabase(tb), opts...)
}

func openDSN(tb testing.TB, dsn string, opts ...Option) *Store {
	tb.Helper()
	s, err := Open(context.Background(), dsn, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = s.Close() })
	return s
}

// TestStore runs the store behaviour suite every adapter passes.
func TestStore(t *testing.T) {
	storetest.Run(t, func(t testing.TB) reference.Store { return open(t) })
}

// TestShared runs the shared-database suite on stores of one database,
// alternately optimistic and locked-only, so the two paths interleave.
func TestShared(t *testing.T) {
	storetest.RunShared(t, func(t testing.TB, n int) []reference.Store {
		dsn := newDatabase(t)
		ss := make([]reference.Store, n)
		for i := range ss {
			ss[i] = openDSN(t, dsn, WithStateCache((i+1)%2*64))
		}
		return ss
	})
}

// TestHeldLockIsBusy: a bucket locked longer than the busy timeout fails
// an Update that writes it with ErrBusy, never a decision.
func TestHeldLockIsBusy(t *testing.T) {
	dsn := newDatabase(t)
	s := openDSN(t, dsn, WithBusyTimeout(300*time.Millisecond))
	holder := openDSN(t, dsn, WithStateCache(0)) // another instance, on the locked path
	ctx := context.Background()
	hold := make(chan struct{})
	held := make(chan struct{})
	go func() {
		_ = holder.Update(ctx, func(ctx context.Context, tx reference.Tx) error {
			if _, err := tx.Bucket(ctx, "b"); err != nil {
				return err
			}
			close(held)
			<-hold
			return nil
		})
	}()
	<-held
	err := s.Update(ctx, func(ctx context.Context, tx reference.Tx) error {
		st, err := tx.Bucket(ctx, "b")
		if err != nil {
			return err
		}
		return tx.PutBucket(ctx, "b", st)
	})
	close(hold)
	if !errors.Is(err, reference.ErrBusy) {
		t.Fatalf("update on a held bucket: %v, want ErrBusy", err)
	}
}

// TestAbsentKeyIsLocked: two Updates that both find a bucket absent do not
// both create it (the lost update an ON CONFLICT upsert alone allows).
func TestAbsentKeyIsLocked(t *testing.T) {
	s := open(t)
	ctx := context.Background()
	const n = 40
	errs := make(chan error, n)
	start := make(chan struct{})
	for range n {
		go func() {
			<-start
			errs <- s.Update(ctx, func(ctx context.Context, tx reference.Tx) error {
				st, err := tx.Bucket(ctx, "fresh")
				if err != nil {
					return err
				}
				if !st.Found {
					st = model.State{Found: true, Remaining: 0}
				}
				st.Remaining++
				return tx.PutBucket(ctx, "fresh", st)
			})
		}()
	}
	close(start)
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	var st model.State
	if err := s.View(ctx, func(ctx context.Context, tx reference.Tx) error {
		var err error
		st, err = tx.Bucket(ctx, "fresh")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if st.Remaining != n {
		t.Fatalf("%d concurrent increments of an absent bucket left %d", n, st.Remaining)
	}
}

func TestOpenRejectsBadInput(t *testing.T) {
	if _, err := Open(context.Background(), "postgres://u:hunter2@127.0.0.1:1/x?connect_timeout=1"); err == nil {
		t.Fatal("connected to port 1")
	} else if s := err.Error(); strings.Contains(s, "hunter2") {
		t.Fatalf("error shows the password: %s", s)
	}
	if _, err := Open(context.Background(), "::not a url::"); err == nil {
		t.Fatal("accepted a malformed DSN")
	}
	if _, err := Open(context.Background(), "postgres://x", WithMaxConns(0)); err == nil {
		t.Fatal("accepted 0 connections")
	}
}
