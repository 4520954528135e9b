package sqltarget

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Conn is one simulated client with a connection of its own (the load
// generator's path: no pool between the caller and the server).
type Conn struct {
	t    *Transport
	conn *pgx.Conn
}

// Dial opens a dedicated connection to the transport's database.
func (t *Transport) Dial(ctx context.Context) (*Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, t.pool.Config().ConnConfig.Copy())
	if err != nil {
		return nil, fmt.Errorf("sql target: connect: %w", err)
	}
	return &Conn{t: t, conn: conn}, nil
}

// Check calls the function once as key ("" calls with no claims) and
// answers as RoundTrip does: 200 allowed, 429 refused, 503 the function
// failed. An error means the connection is lost; dial a new one.
func (c *Conn) Check(ctx context.Context, key string) (int, error) {
	allowed, err := c.t.checkOn(ctx, c.conn, claimsFor(key))
	var pgErr *pgconn.PgError
	switch {
	case errors.As(err, &pgErr):
		return http.StatusServiceUnavailable, nil
	case err != nil:
		return 0, err
	case allowed:
		return http.StatusOK, nil
	}
	return http.StatusTooManyRequests, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.conn.Close(context.Background()) }
