package containers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"

	"github.com/rlspec/rlspec/internal/pgcluster"
)

// Environment of the reference image's PostgreSQL store.
const (
	EnvStore       = "STORE"
	EnvDatabaseURL = "DATABASE_URL"
)

// sharedPostgres starts a throwaway PostgreSQL listening on the Docker
// gateway gw and trusting the bridge's /16 (the containers' addresses),
// creates the database the instances share, and returns the options that
// point each container at it and the function that removes it.
func sharedPostgres(ctx context.Context, gw netip.Addr, note io.Writer) ([]Option, func() error, error) {
	bits := 16
	if gw.Is6() {
		bits = 64
	}
	c, err := pgcluster.Start(ctx, pgcluster.WithNetwork(gw, netip.PrefixFrom(gw, bits)), pgcluster.WithSetting("max_connections", "300"))
	if err != nil {
		return nil, nil, fmt.Errorf("PostgreSQL for the instances: %w", err)
	}
	if _, err := c.CreateDatabase(ctx, "rlspec"); err != nil {
		return nil, nil, errors.Join(fmt.Errorf("PostgreSQL for the instances: %w", err), c.Close())
	}
	dsn := c.DSNAt(gw, "rlspec")
	fmt.Fprintf(note, "the instances share PostgreSQL at %s (a throwaway cluster, removed afterwards)\n", netip.AddrPortFrom(gw, uint16(c.Port())))
	return []Option{WithEnv(EnvStore, "postgres"), WithEnv(EnvDatabaseURL, dsn)}, c.Close, nil
}
