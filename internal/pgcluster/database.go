package pgcluster

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// admin runs fn on a new connection to the maintenance database.
func (c *Cluster) admin(ctx context.Context, fn func(conn *pgx.Conn) error) error {
	conn, err := pgx.Connect(ctx, c.DSN("postgres"))
	if err != nil {
		return fmt.Errorf("pgcluster: %w", err)
	}
	defer conn.Close(ctx)
	return fn(conn)
}

// alter runs one statement on database name as the maintenance
// database's superuser: sql with name quoted as an identifier in place of
// %s; what names it in the error.
func (c *Cluster) alter(ctx context.Context, what, name, sql string) error {
	return c.admin(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, fmt.Sprintf(sql, pgx.Identifier{name}.Sanitize())); err != nil {
			return fmt.Errorf("pgcluster: %s %s: %w", what, name, err)
		}
		return nil
	})
}

// CreateDatabase creates an empty database named name (quoted as an
// identifier) and returns its DSN.
func (c *Cluster) CreateDatabase(ctx context.Context, name string) (string, error) {
	if err := c.alter(ctx, "create database", name, "CREATE DATABASE %s"); err != nil {
		return "", err
	}
	return c.DSN(name), nil
}

// DropDatabase drops database name, ending its sessions first.
func (c *Cluster) DropDatabase(ctx context.Context, name string) error {
	return c.alter(ctx, "drop database", name, "DROP DATABASE IF EXISTS %s WITH (FORCE)")
}

// Disconnect makes database name unavailable, as a server that went away
// is to its clients: no new session is let in and every session it has
// is ended; Disconnect returns once they are gone. The cluster's other
// databases serve on. Reconnect lets sessions in again.
func (c *Cluster) Disconnect(ctx context.Context, name string) error {
	return c.admin(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{name}.Sanitize()+" ALLOW_CONNECTIONS false"); err != nil {
			return fmt.Errorf("pgcluster: disconnect %s: %w", name, err)
		}
		// Every session is told to end at once, then the sessions are
		// counted until none is left (pg_terminate_backend's own wait
		// takes ~100 ms a session, one after another).
		const sessions = "FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()"
		if _, err := conn.Exec(ctx, "SELECT pg_terminate_backend(pid) "+sessions, name); err != nil {
			return fmt.Errorf("pgcluster: disconnect %s: end its sessions: %w", name, err)
		}
		left, err := waitNone(10*time.Second, 5*time.Millisecond, func() (int, error) {
			var n int
			err := conn.QueryRow(ctx, "SELECT count(*) "+sessions, name).Scan(&n)
			return n, err
		})
		switch {
		case err != nil:
			return fmt.Errorf("pgcluster: disconnect %s: count its sessions: %w", name, err)
		case left > 0:
			return fmt.Errorf("pgcluster: disconnect %s: %d session(s) still running after 10s", name, left)
		}
		return nil
	})
}

// Reconnect ends Disconnect: database name lets sessions in again.
func (c *Cluster) Reconnect(ctx context.Context, name string) error {
	return c.alter(ctx, "reconnect", name, "ALTER DATABASE %s ALLOW_CONNECTIONS true")
}
