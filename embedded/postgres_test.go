package embedded

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/internal/pgcluster"
)

// TestSharedPostgresKeepsSetsApart: two pairs on one shared cluster each
// get databases of their own; one pair's outage takes only its databases
// away, and its Close drops them while the other pair's stay.
func TestSharedPostgresKeepsSetsApart(t *testing.T) {
	pg, err := StartPostgres(context.Background())
	if errors.Is(err, pgcluster.ErrNotInstalled) {
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = pg.Close() })
	o := Options{Store: fakeserver.StorePostgres, Postgres: pg}
	a, err := StartPair(5, time.Minute, 0, o)
	if err != nil {
		t.Fatal(err)
	}
	b, err := StartPair(5, time.Minute, 0, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	if a.TargetDB == b.TargetDB {
		t.Fatalf("both pairs were given %s", a.TargetDB)
	}
	ctx := context.Background()
	if err := a.StoreDown(ctx); err != nil {
		t.Fatal(err)
	}
	wantCode(t, a.TargetDB, "55000") // not accepting connections
	wantCode(t, b.TargetDB, "")
	if err := a.StoreUp(ctx); err != nil {
		t.Fatal(err)
	}
	wantCode(t, a.TargetDB, "")
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	wantCode(t, a.TargetDB, "3D000") // no such database
	wantCode(t, b.TargetDB, "")
}

// wantCode connects to dsn: "" wants a session, a code the SQLSTATE the
// connection is refused with.
func wantCode(t *testing.T, dsn, code string) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err == nil {
		_ = conn.Close(context.Background())
	}
	var pe *pgconn.PgError
	switch {
	case code == "" && err != nil:
		t.Fatalf("connect %s: %v, want a session", dsn, err)
	case code != "" && (!errors.As(err, &pe) || pe.Code != code):
		t.Fatalf("connect %s: %v, want SQLSTATE %s", dsn, err, code)
	}
}
