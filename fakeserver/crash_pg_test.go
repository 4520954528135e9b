package fakeserver

import (
	"context"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/reference/storetest"
)

// startCrashCluster starts a throwaway PostgreSQL, or skips the test with
// what to install.
func startCrashCluster(t *testing.T) *pgcluster.Cluster {
	t.Helper()
	if testing.Short() {
		t.Skip("spawns and kills processes")
	}
	return storetest.Postgres(t)
}

// Crash safety on PostgreSQL, the reference killed: SIGKILL the server
// process at random moments under concurrent load and start a new one on
// the same database, 20 times. Nothing acknowledged is lost, nothing is
// oversold, the indexes pass amcheck.
func TestCrashSafetyPostgres(t *testing.T) {
	t.Parallel()
	c := startCrashCluster(t)
	dsn := c.DSN("postgres")
	l := newCrashLedger()
	killServerCycles(t, crashCycles(), l, func(cycle int) { checkPostgresCrashState(t, dsn, l, cycle) }, serverHelperPGEnv+"="+dsn)
}

// Crash safety on PostgreSQL, the database killed: one reference server
// stays up while its PostgreSQL server gets SIGKILL at random moments under
// concurrent load and is restarted on the same data directory, 20 times.
// Requests while it is down get 503; every acknowledged 200 survives the
// crash and nothing is oversold.
func TestCrashSafetyPostgresDatabaseKilled(t *testing.T) {
	t.Parallel()
	c := startCrashCluster(t)
	dsn := c.DSN("postgres")
	cfg := DefaultConfig()
	cfg.Limit, cfg.Store, cfg.DatabaseURL = crashLimit, StorePostgres, dsn
	srv, err := Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	rng := crashRNG(t)
	client := crashClient(t)
	l := newCrashLedger()
	ctx := context.Background()
	cycles := crashCycles()
	for cycle := 0; cycle < cycles; cycle++ {
		killAfter := int64(rng.IntN(80))
		var killOnce sync.Once
		var killErr error
		kill := func() { killOnce.Do(func() { killErr = c.Kill() }) }
		if killAfter == 0 {
			kill()
		}
		l.load(t, client, srv.URL, cycle, true, func(n int64) {
			if n >= killAfter {
				kill()
			}
		})
		kill()
		if killErr != nil {
			t.Fatalf("cycle %d: kill PostgreSQL: %v", cycle, killErr)
		}
		if err := c.Restart(ctx); err != nil {
			t.Fatalf("cycle %d: restart PostgreSQL: %v", cycle, err)
		}
		checkPostgresCrashState(t, dsn, l, cycle)
		if t.Failed() {
			return
		}
	}
	t.Logf("%d cycles, %d acknowledged 200s", cycles, len(l.acks))
}

// checkPostgresCrashState checks the database against the ledger and its
// B-tree indexes with amcheck (where the extension is installed).
func checkPostgresCrashState(t *testing.T, dsn string, l *crashLedger, cycle int) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatalf("cycle %d: connect: %v", cycle, err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS amcheck`); err == nil {
		var n int
		err := conn.QueryRow(ctx, `SELECT count(bt_index_check(c.oid, true)) FROM pg_index i
			JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am a ON a.oid = c.relam
			JOIN pg_class r ON r.oid = i.indrelid
			WHERE a.amname = 'btree' AND r.relname IN ('rate_limit_buckets', 'idempotency_keys', 'ride_ingest')`).Scan(&n)
		if err != nil || n == 0 {
			t.Fatalf("cycle %d: amcheck: %d indexes checked, %v", cycle, n, err)
		}
	} else if cycle == 0 {
		t.Logf("amcheck not available, indexes not checked: %v", err)
	}
	l.check(t, cycle, func(id string) (q int, reset int64, err error) {
		err = conn.QueryRow(ctx, `SELECT quota_remaining, reset_utc FROM rate_limit_buckets WHERE bucket_id = $1`, id).Scan(&q, &reset)
		return q, reset, err
	}, func() (n int, err error) {
		err = conn.QueryRow(ctx, `SELECT count(*) FROM ride_ingest`).Scan(&n)
		return n, err
	})
}
