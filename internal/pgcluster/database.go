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

// CreateDatabase creates an empty database named name (quoted as an
// identifier) and returns its DSN.
func (c *Cluster) CreateDatabase(ctx context.Context, name string) (string, error) {
	err := c.admin(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
			return fmt.Errorf("pgcluster: create database %s: %w", name, err)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	return c.DSN(name), nil
}

// DropDatabase drops database name, ending its sessions first.
func (c *Cluster) DropDatabase(ctx context.Context, name string) error {
	return c.admin(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("pgcluster: drop database %s: %w", name, err)
		}
		return nil
	})
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
		deadline := time.Now().Add(10 * time.Second)
		for {
			var left int
			if err := conn.QueryRow(ctx, "SELECT count(*) "+sessions, name).Scan(&left); err != nil {
				return fmt.Errorf("pgcluster: disconnect %s: count its sessions: %w", name, err)
			}
			if left == 0 {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("pgcluster: disconnect %s: %d session(s) still running after 10s", name, left)
			}
			time.Sleep(5 * time.Millisecond) // polling a condition with a deadline, not synchronisation by sleep
		}
		return nil
	})
}

// Reconnect ends Disconnect: database name lets sessions in again.
func (c *Cluster) Reconnect(ctx context.Context, name string) error {
	return c.admin(ctx, func(conn *pgx.Conn) error {
		if _, err := conn.Exec(ctx, "ALTER DATABASE "+pgx.Identifier{name}.Sanitize()+" ALLOW_CONNECTIONS true"); err != nil {
			return fmt.Errorf("pgcluster: reconnect %s: %w", name, err)
		}
		return nil
	})
}
