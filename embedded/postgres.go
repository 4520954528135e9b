package embedded

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/internal/pgcluster"
)

// Postgres is a throwaway PostgreSQL cluster that instance sets
// (StartPair, StartQuotas) share through Options.Postgres: each set's
// stores are databases of their own on it, dropped when the set closes.
// A run of many suites (the self-test's matrix) so pays for initdb and a
// server start once, not once a suite.
type Postgres struct {
	cluster *pgcluster.Cluster
	n       atomic.Int64 // databases created
}

// StartPostgres starts a cluster for instance sets to share; the caller
// must Close it after them.
func StartPostgres(ctx context.Context) (*Postgres, error) {
	c, err := pgcluster.Start(ctx, pgcluster.WithSetting("max_connections", "500"))
	if err != nil {
		return nil, fmt.Errorf("embedded reference on PostgreSQL: %w", err)
	}
	return &Postgres{cluster: c}, nil
}

// StartPostgresFor is StartPostgres where sets of kind take PostgreSQL
// databases, and nil (nothing to share) for SQLite.
func StartPostgresFor(ctx context.Context, kind fakeserver.StoreKind) (*Postgres, error) {
	if kind != fakeserver.StorePostgres {
		return nil, nil
	}
	return StartPostgres(ctx)
}

// Close stops the cluster and removes it; a nil Postgres has none.
func (p *Postgres) Close() error {
	if p == nil {
		return nil
	}
	return p.cluster.Close()
}

// database creates a database no other set has; its name and DSN.
func (p *Postgres) database(ctx context.Context) (name, dsn string, err error) {
	name = fmt.Sprintf("rlspec_%d", p.n.Add(1))
	dsn, err = p.cluster.CreateDatabase(ctx, name)
	if err != nil {
		return "", "", fmt.Errorf("embedded reference: %w", err)
	}
	return name, dsn, nil
}

// stores hands out one empty store per instance set: SQLite leaves the
// path to the server (a temporary file) or a shared file; PostgreSQL gets
// a database of its own, on the shared cluster or on one of the set's own.
type stores struct {
	kind fakeserver.StoreKind
	pg   *Postgres
	own  bool     // pg was started for this set: close stops it
	dbs  []string // the set's PostgreSQL databases, in the order configured
}

func newStores(kind fakeserver.StoreKind, shared *Postgres) (*stores, error) {
	if kind == "" {
		kind = fakeserver.StoreSQLite
	}
	s := &stores{kind: kind}
	switch {
	case kind != fakeserver.StorePostgres:
	case shared != nil:
		s.pg = shared
	default:
		pg, err := StartPostgres(context.Background())
		if err != nil {
			return nil, err
		}
		s.pg, s.own = pg, true
	}
	return s, nil
}

// configure points cfg at a fresh store: a new PostgreSQL database, or for
// SQLite sqlitePath ("" = the server's own temporary file).
func (s *stores) configure(cfg *fakeserver.Config, sqlitePath string) error {
	cfg.Store = s.kind
	if s.kind != fakeserver.StorePostgres {
		cfg.DBPath = sqlitePath
		return nil
	}
	name, dsn, err := s.pg.database(context.Background())
	if err != nil {
		return err
	}
	s.dbs = append(s.dbs, name)
	cfg.DatabaseURL = dsn
	return nil
}

// down makes the set's PostgreSQL databases unavailable; up ends that.
func (s *stores) down(ctx context.Context) error {
	for _, db := range s.dbs {
		if err := s.pg.cluster.Disconnect(ctx, db); err != nil {
			return err
		}
	}
	return nil
}

func (s *stores) up(ctx context.Context) error {
	var errs []error
	for _, db := range s.dbs {
		errs = append(errs, s.pg.cluster.Reconnect(ctx, db))
	}
	return errors.Join(errs...)
}

// close removes the set's PostgreSQL stores: the cluster when it is the
// set's own, its databases on a shared one.
func (s *stores) close() error {
	if s == nil || s.pg == nil {
		return nil
	}
	if s.own {
		return s.pg.Close()
	}
	var errs []error
	for _, db := range s.dbs {
		errs = append(errs, s.pg.cluster.DropDatabase(context.Background(), db))
	}
	return errors.Join(errs...)
}
