package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/rlspec/rlspec/internal/pgcluster"
)

// Postgres starts a throwaway PostgreSQL cluster for t (opts as
// pgcluster.Start takes them), closed when t ends; t is skipped where
// PostgreSQL is not installed.
func Postgres(t testing.TB, opts ...pgcluster.Option) *pgcluster.Cluster {
	t.Helper()
	c, err := pgcluster.Start(context.Background(), opts...)
	if errors.Is(err, pgcluster.ErrNotInstalled) {
		t.Skip(err.Error())
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}
