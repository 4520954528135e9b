package sqltarget

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// cluster is this test binary's one PostgreSQL server (nil: tests skip with
// skipReason). Each test gets its own database.
type testEnv struct {
	cluster    *pgcluster.Cluster
	skipReason string
}

var env testEnv // set once in TestMain, read-only afterwards

func TestMain(m *testing.M) {
	c, err := pgcluster.Start(context.Background(), pgcluster.WithSetting("max_connections", "200"))
	switch {
	case errors.Is(err, pgcluster.ErrNotInstalled):
		env.skipReason = err.Error()
	case err != nil:
		fmt.Fprintln(os.Stderr, "sqltarget tests: start PostgreSQL:", err)
		os.Exit(1)
	default:
		env.cluster = c
	}
	code := m.Run()
	if c != nil {
		if err := c.Close(); err != nil {
			fmt.Fprintln(os.Stderr, "sqltarget tests: stop PostgreSQL:", err)
		}
	}
	os.Exit(code)
}

// database creates a fresh database with the spec/004 variant installed and
// returns its DSN.
func database(tb testing.TB, v spec004.Variant) string {
	tb.Helper()
	if env.cluster == nil {
		tb.Skip(env.skipReason)
	}
	ctx := context.Background()
	name := fmt.Sprintf("t%x_%s_%s", rand.Uint32(), sanitize(string(v)), sanitize(tb.Name()))
	dsn, err := env.cluster.CreateDatabase(ctx, name)
	if err != nil {
		tb.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	if err := spec004.Install(ctx, conn, v); err != nil {
		tb.Fatal(err)
	}
	return dsn
}

func sanitize(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s) && len(out) < 40; i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			out = append(out, c)
		} else {
			out = append(out, '_')
		}
	}
	return string(out)
}
