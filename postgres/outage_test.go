package postgres

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/reference/storetest"
)

// TestServerDownIsUnavailable: while the server is stopped an Update fails
// with reference.ErrUnavailable (the server answers 503, FAIL-1), and once
// it is back the same store works again at once, with its state kept.
func TestServerDownIsUnavailable(t *testing.T) {
	pg.Cluster(t) // skips where PostgreSQL is not installed
	// A cluster of its own: the other tests share pg's.
	c := storetest.Postgres(t)
	ctx := context.Background()
	s, put := openPut(t, c.DSN("postgres"))
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := put(6); !errors.Is(err, reference.ErrUnavailable) {
			t.Fatalf("Update with the server down: err = %v, want ErrUnavailable", err)
		}
	}
	if err := c.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	// The connections the outage broke were dropped: the first decision
	// after the restart succeeds.
	var got model.State
	err := s.View(ctx, func(ctx context.Context, tx reference.Tx) error {
		var err error
		got, err = tx.Bucket(ctx, "b")
		return err
	})
	if err != nil {
		t.Fatalf("first View after the restart: %v", err)
	}
	if got.Remaining != 7 {
		t.Fatalf("after the outage Remaining = %d, want 7", got.Remaining)
	}
}

// TestDisconnectedDatabaseIsUnavailable: while the store's database lets
// no session in (pgcluster.Disconnect, the embedded reference's outage on
// a shared cluster) an Update fails with reference.ErrUnavailable, not as
// an internal error, and once it lets them in the store works again.
func TestDisconnectedDatabaseIsUnavailable(t *testing.T) {
	c := pg.Cluster(t)
	ctx := context.Background()
	name := fmt.Sprintf("outage_%d", os.Getpid())
	dsn, err := c.CreateDatabase(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	_, put := openPut(t, dsn)
	if err := c.Disconnect(ctx, name); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if err := put(6); !errors.Is(err, reference.ErrUnavailable) {
			t.Fatalf("Update with the database disconnected: err = %v, want ErrUnavailable", err)
		}
	}
	if err := c.Reconnect(ctx, name); err != nil {
		t.Fatal(err)
	}
	if err := put(5); err != nil {
		t.Fatalf("first Update after Reconnect: %v", err)
	}
}

// openPut opens a Store on dsn, closed when t ends, and stores bucket b
// with 7 remaining; it returns the Store and the Update that stores b
// with left.
func openPut(t *testing.T, dsn string) (*Store, func(left int) error) {
	t.Helper()
	s, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	put := func(left int) error {
		return s.Update(context.Background(), func(ctx context.Context, tx reference.Tx) error {
			return tx.PutBucket(ctx, "b", model.State{Found: true, Remaining: left, Reset: 2e9})
		})
	}
	if err := put(7); err != nil {
		t.Fatal(err)
	}
	return s, put
}
