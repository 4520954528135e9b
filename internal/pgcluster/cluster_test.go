package pgcluster

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// startOrSkip starts a cluster, skipping with one line when PostgreSQL is
// not installed (make test installs it as root; see the Makefile).
func startOrSkip(t *testing.T, opts ...Option) *Cluster {
	t.Helper()
	c, err := Start(context.Background(), opts...)
	if errors.Is(err, ErrNotInstalled) {
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.Close(); err != nil {
			t.Error(err)
		}
	})
	return c
}

// connect opens a connection to dsn for one check, closed when t ends.
func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

func exec1(t *testing.T, dsn, sql string, args ...any) int {
	t.Helper()
	ctx := context.Background()
	conn := connect(t, dsn)
	var n int
	if err := conn.QueryRow(ctx, sql, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestKillRestartKeepsCommittedData(t *testing.T) {
	c := startOrSkip(t, WithSetting("max_connections", "50"))
	dsn := c.DSN("postgres")
	if got := exec1(t, dsn, "SELECT current_setting('max_connections')::int"); got != 50 {
		t.Fatalf("max_connections = %d, want the setting passed (50)", got)
	}
	execNoRows(t, dsn, "CREATE TABLE t(x int)")
	if got := exec1(t, dsn, "WITH i AS (INSERT INTO t VALUES (7) RETURNING x) SELECT x FROM i"); got != 7 {
		t.Fatalf("insert returned %d", got)
	}
	if err := c.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := ping(context.Background(), dsn); err == nil {
		t.Fatal("server still answers after Kill")
	}
	if err := c.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := exec1(t, dsn, "SELECT count(*)::int FROM t WHERE x = 7"); got != 1 {
		t.Fatalf("after a crash and restart the committed row is there %d times, want 1", got)
	}
}

func TestCloseRemovesEverything(t *testing.T) {
	c, err := Start(context.Background())
	if errors.Is(err, ErrNotInstalled) {
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	dir := c.dir
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("%s still exists after Close (stat: %v)", dir, err)
	}
}

func TestBadOptionsAndMissingBinaries(t *testing.T) {
	if _, err := Start(context.Background(), WithSetting("a=b", "1")); err == nil {
		t.Error("a setting name with '=' was accepted")
	}
	if _, err := Start(context.Background(), WithStartTimeout(0)); err == nil {
		t.Error("a zero start timeout was accepted")
	}
	_, err := Start(context.Background(), WithBinDir(t.TempDir()))
	if err == nil {
		t.Fatal("an empty bin dir started a cluster")
	}
	t.Setenv("PG_BINDIR", t.TempDir())
	if _, err := BinDir(); !errors.Is(err, ErrNotInstalled) {
		t.Errorf("BinDir with an empty PG_BINDIR: %v, want ErrNotInstalled", err)
	}
}

func execNoRows(t *testing.T, dsn, sql string) {
	t.Helper()
	ctx := context.Background()
	conn := connect(t, dsn)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatal(err)
	}
}
