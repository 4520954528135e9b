package pgcluster

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestDisconnectTakesOneDatabaseAway: a disconnected database ends its
// sessions and lets none in, its neighbour serves on, Reconnect lets
// sessions in again and DropDatabase removes it with a session open.
func TestDisconnectTakesOneDatabaseAway(t *testing.T) {
	c := startOrSkip(t)
	ctx := context.Background()
	down, err := c.CreateDatabase(ctx, "down")
	if err != nil {
		t.Fatal(err)
	}
	other, err := c.CreateDatabase(ctx, "other")
	if err != nil {
		t.Fatal(err)
	}
	open := connect(t, down)
	start := time.Now()
	if err := c.Disconnect(ctx, "down"); err != nil {
		t.Fatal(err)
	}
	t.Logf("disconnect took %s", time.Since(start))
	var pe *pgconn.PgError
	if _, err := open.Exec(ctx, "SELECT 1"); err == nil {
		t.Fatal("a session of the disconnected database still runs queries")
	}
	_, err = pgx.Connect(ctx, down)
	if !errors.As(err, &pe) || pe.Code != "55000" {
		t.Fatalf("a new session of the disconnected database: %v, want SQLSTATE 55000", err)
	}
	if got := exec1(t, other, "SELECT 1"); got != 1 {
		t.Fatalf("the other database answered %d", got)
	}
	if err := c.Reconnect(ctx, "down"); err != nil {
		t.Fatal(err)
	}
	if got := exec1(t, down, "SELECT 2"); got != 2 {
		t.Fatalf("after Reconnect the database answered %d", got)
	}
	if err := c.DropDatabase(ctx, "down"); err != nil {
		t.Fatal(err)
	}
	if _, err := pgx.Connect(ctx, down); !errors.As(err, &pe) || pe.Code != "3D000" {
		t.Fatalf("after DropDatabase: %v, want SQLSTATE 3D000 (no such database)", err)
	}
}
