package postgres

import (
	"context"
	"errors"
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
	s, err := Open(ctx, c.DSN("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	put := func(left int) error {
		return s.Update(ctx, func(ctx context.Context, tx reference.Tx) error {
			return tx.PutBucket(ctx, "b", model.State{Found: true, Remaining: left, Reset: 2e9})
		})
	}
	if err := put(7); err != nil {
		t.Fatal(err)
	}
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
	err = s.View(ctx, func(ctx context.Context, tx reference.Tx) error {
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
