// Package pgtest gives a test binary one throwaway PostgreSQL cluster,
// started in its TestMain (Main) and shared by its tests (Shared.Cluster),
// which are skipped with the reason where PostgreSQL is not installed.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/rlspec/rlspec/internal/pgcluster"
)

// Shared is a test binary's cluster: nil, with the reason, where
// PostgreSQL is not installed. Main sets it before the tests run; they
// only read it.
type Shared struct {
	cluster *pgcluster.Cluster
	reason  string
}

// Main starts the cluster into s (opts as pgcluster.Start takes them),
// runs m's tests, stops it and exits with the tests' code. A failed start
// other than a missing installation exits 1, naming whose tests (name).
func Main(m *testing.M, name string, s *Shared, opts ...pgcluster.Option) {
	c, err := pgcluster.Start(context.Background(), opts...)
	switch {
	case errors.Is(err, pgcluster.ErrNotInstalled):
		s.reason = err.Error()
	case err != nil:
		fmt.Fprintf(os.Stderr, "%s: start PostgreSQL: %v\n", name, err)
		os.Exit(1)
	default:
		s.cluster = c
	}
	code := m.Run()
	if c != nil {
		if err := c.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: stop PostgreSQL: %v\n", name, err)
		}
	}
	os.Exit(code)
}

// Cluster is the shared cluster; tb is skipped where there is none.
func (s *Shared) Cluster(tb testing.TB) *pgcluster.Cluster {
	tb.Helper()
	if s.cluster == nil {
		tb.Skip(s.reason)
	}
	return s.cluster
}
