package sqltarget

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/internal/pgcluster/pgtest"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// pg is this test binary's one PostgreSQL server; each test gets its own
// database.
var pg pgtest.Shared

func TestMain(m *testing.M) {
	pgtest.Main(m, "sqltarget tests", &pg, pgcluster.WithSetting("max_connections", "200"))
}

// database creates a fresh database with the spec/004 variant installed and
// returns its DSN.
func database(tb testing.TB, v spec004.Variant) string {
	tb.Helper()
	c := pg.Cluster(tb)
	ctx := context.Background()
	name := fmt.Sprintf("t%x_%s_%s", rand.Uint32(), sanitize(string(v)), sanitize(tb.Name()))
	dsn, err := c.CreateDatabase(ctx, name)
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
