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
func sharedPostgres(ctx context.Context, gw netip.Addr, note io.Writer, h *StoreHandle) ([]Option, func() error, error) {
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
	if h != nil {
		h.cluster = c
	}
	fmt.Fprintf(note, "the instances share PostgreSQL at %s (a throwaway cluster, removed afterwards)\n", netip.AddrPortFrom(gw, uint16(c.Port())))
	return []Option{WithEnv(EnvStore, "postgres"), WithEnv(EnvDatabaseURL, dsn)}, c.Close, nil
}

// StoreHandle takes the instances' shared PostgreSQL away and brings it back
// (FAIL-1, FAIL-2 against TARGET_IMAGE with STORE=postgres): the server is
// stopped and restarted on its data. StartForHarness fills it
// (HarnessOptions.Store).
type StoreHandle struct {
	cluster *pgcluster.Cluster
}

// StoreDown stops the server.
func (h *StoreHandle) StoreDown(context.Context) error {
	if h.cluster == nil {
		return errors.New("store down: no PostgreSQL was started")
	}
	if err := h.cluster.Stop(); err != nil {
		return fmt.Errorf("store down: stop PostgreSQL: %w", err)
	}
	return nil
}

// StoreUp restarts it and waits until it accepts connections.
func (h *StoreHandle) StoreUp(ctx context.Context) error {
	if h.cluster == nil {
		return errors.New("store up: no PostgreSQL was started")
	}
	if err := h.cluster.Restart(ctx); err != nil {
		return fmt.Errorf("store up: restart PostgreSQL: %w", err)
	}
	return nil
}
