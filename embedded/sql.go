package embedded

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// SQL is spec/004's function in a throwaway PostgreSQL cluster
// (TARGET_DB=embedded): the shipped check_rate_limit or a faulty variant.
type SQL struct {
	DSN         string // TARGET_DB of the function's database
	Description string
	cluster     *pgcluster.Cluster
}

// StartSQL starts a cluster, creates a database and installs variant v of
// spec/004's SQL in it. Close removes the cluster.
func StartSQL(ctx context.Context, v spec004.Variant) (_ *SQL, err error) {
	c, err := pgcluster.Start(ctx, pgcluster.WithSetting("max_connections", "300"))
	if err != nil {
		return nil, fmt.Errorf("start PostgreSQL for spec/004: %w", err)
	}
	defer func() {
		if err != nil {
			_ = c.Close()
		}
	}()
	dsn, err := c.CreateDatabase(ctx, "spec004")
	if err != nil {
		return nil, fmt.Errorf("spec/004 database: %w", err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("spec/004 database: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := spec004.Install(ctx, conn, v); err != nil {
		return nil, err
	}
	name := "shipped"
	if v != spec004.Shipped {
		name = "fault " + string(v)
	}
	return &SQL{DSN: dsn, cluster: c,
		Description: fmt.Sprintf("spec/004's check_rate_limit (%s) in a throwaway PostgreSQL %s", name, c.BinDir())}, nil
}

// Close stops and removes the cluster.
func (s *SQL) Close() error { return s.cluster.Close() }
