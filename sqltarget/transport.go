package sqltarget

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Config says which function to call and how.
type Config struct {
	DSN       string        // TARGET_DB (postgres://…)
	Function  string        // TARGET_SQL, e.g. check_rate_limit or public.check_rate_limit
	RPCName   string        // p_rpc_name (default "rlspec")
	Limit     int           // p_max_calls (RL_LIMIT)
	Window    time.Duration // p_window_minutes (RL_WINDOW)
	KeyHeader string        // the request header naming the caller (default X-User-ID)
}

// Transport calls the function for every request. Close it when done.
type Transport struct {
	pool      *pgxpool.Pool
	call      string // SELECT <fn>($1, $2, $3)
	ident     string // the function's quoted name
	rpc       string
	limit     int
	window    any // int minutes or float64 minutes, as the function takes it
	keyHeader string
}

var _ http.RoundTripper = (*Transport)(nil)

type options struct{ maxConns int32 }

// Option sets a default of New.
type Option func(*options) error

// WithMaxConns bounds the pool: the most simultaneous callers (default 64).
func WithMaxConns(n int) Option {
	return func(o *options) error {
		if n < 1 || n > math.MaxInt32 {
			return fmt.Errorf("max connections must be at least 1, got %d", n)
		}
		o.maxConns = int32(n)
		return nil
	}
}

// New connects, finds the function and checks that its window argument can
// carry cfg.Window.
func New(ctx context.Context, cfg Config, opts ...Option) (*Transport, error) {
	o := options{maxConns: 64}
	for _, opt := range opts {
		if err := opt(&o); err != nil {
			return nil, fmt.Errorf("sql target: %w", err)
		}
	}
	if cfg.Function == "" {
		return nil, errors.New("sql target: TARGET_SQL names no function")
	}
	if cfg.Limit < 1 {
		return nil, fmt.Errorf("sql target: RL_LIMIT must be at least 1, got %d", cfg.Limit)
	}
	if cfg.RPCName == "" {
		cfg.RPCName = "rlspec"
	}
	if cfg.KeyHeader == "" {
		cfg.KeyHeader = "X-User-ID"
	}
	pcfg, err := pgxpool.ParseConfig(cfg.DSN)
	if err != nil {
		return nil, fmt.Errorf("sql target: TARGET_DB is not a PostgreSQL URL: %w", redactErr(err, cfg.DSN))
	}
	pcfg.MaxConns = o.maxConns
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("sql target: %w", redactErr(err, cfg.DSN))
	}
	t := &Transport{pool: pool, rpc: cfg.RPCName, limit: cfg.Limit, keyHeader: cfg.KeyHeader}
	if err := t.resolve(ctx, cfg); err != nil {
		pool.Close()
		return nil, err
	}
	return t, nil
}

// resolve finds the function's argument types and builds the call.
func (t *Transport) resolve(ctx context.Context, cfg Config) error {
	ident := pgx.Identifier(strings.Split(cfg.Function, ".")).Sanitize()
	var args []string
	err := t.pool.QueryRow(ctx, `
		SELECT array(SELECT format_type(x, NULL) FROM unnest(p.proargtypes) AS x)
		  FROM pg_proc p WHERE p.oid = to_regproc($1)::oid`, cfg.Function).Scan(&args)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("sql target: TARGET_SQL=%s: no such function in this database", cfg.Function)
	}
	if err != nil {
		return fmt.Errorf("sql target: TARGET_SQL=%s: %w", cfg.Function, err)
	}
	if len(args) != 3 {
		return fmt.Errorf("sql target: %s takes %d arguments; want (p_rpc_name, p_max_calls, p_window_minutes)", cfg.Function, len(args))
	}
	minutes := cfg.Window.Minutes()
	switch args[2] {
	case "integer", "bigint", "smallint":
		if cfg.Window < time.Minute || cfg.Window%time.Minute != 0 {
			return fmt.Errorf("sql target: %s takes p_window_minutes as %s: RL_WINDOW must be whole minutes (got %s); scenarios that wait out a window age the row through TARGET_DB instead", cfg.Function, args[2], cfg.Window)
		}
		t.window = int(minutes)
	default:
		if minutes <= 0 {
			return fmt.Errorf("sql target: RL_WINDOW must be positive, got %s", cfg.Window)
		}
		t.window = minutes
	}
	t.ident = ident
	t.call = fmt.Sprintf("SELECT %s($1, $2, $3)", ident)
	return nil
}

// RoundTrip calls the function once as the request's caller.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(req.Body, 1<<20))
		_ = req.Body.Close()
	}
	ctx := req.Context()
	allowed, err := t.check(ctx, claimsFor(req.Header.Get(t.keyHeader)))
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		b, _ := json.Marshal(map[string]any{"error": "check_rate_limit failed: " + err.Error()})
		return response(req, http.StatusServiceUnavailable, b), nil
	case allowed:
		return response(req, http.StatusOK, bodyAllowed), nil
	default:
		return response(req, http.StatusTooManyRequests, bodyRefused), nil
	}
}

// check runs one call on a pooled connection.
func (t *Transport) check(ctx context.Context, claims string) (bool, error) {
	conn, err := t.pool.Acquire(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Release()
	return t.checkOn(ctx, conn.Conn(), claims)
}

// checkOn runs one call in its own transaction on conn, pipelined: BEGIN,
// the claims, the function and COMMIT go out in one round trip and run in
// that order at the server. A failed call leaves its transaction aborted;
// it is rolled back before the connection is used again.
func (t *Transport) checkOn(ctx context.Context, conn *pgx.Conn, claims string) (bool, error) {
	b := &pgx.Batch{}
	b.Queue("BEGIN")
	if claims != "" {
		b.Queue("SELECT set_config('request.jwt.claims', $1, true)", claims)
	}
	b.Queue(t.call, t.rpc, t.limit, t.window)
	b.Queue("COMMIT")
	br := conn.SendBatch(ctx, b)
	var allowed bool
	_, err := br.Exec()
	if err == nil && claims != "" {
		_, err = br.Exec()
	}
	if err == nil {
		err = br.QueryRow().Scan(&allowed)
	}
	if err == nil {
		_, err = br.Exec()
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_, _ = conn.Exec(context.WithoutCancel(ctx), "ROLLBACK")
		return false, err
	}
	return allowed, nil
}

// The bodies of an allow and a refusal, made once: the transport's own
// work per call stays small beside the database's.
var (
	bodyAllowed = []byte(`{"allowed":true}`)
	bodyRefused = []byte(`{"allowed":false}`)
)

// claimsFor is request.jwt.claims for a key ("" for no key: auth.uid()
// NULL). A CallerID is hex digits and dashes: nothing in it needs JSON
// escaping.
func claimsFor(key string) string {
	if key == "" {
		return ""
	}
	return `{"sub":"` + CallerID(key) + `"}`
}

// Age moves the caller's window start d into the past (TARGET_DB aging of
// spec/004's table), so a scenario need not wait out a window of minutes.
func (t *Transport) Age(ctx context.Context, key string, d time.Duration) error {
	_, err := t.pool.Exec(ctx,
		`UPDATE rpc_rate_limits SET window_start = window_start - make_interval(secs => $3)
		  WHERE user_id = $1::uuid AND rpc_name = $2`, CallerID(key), t.rpc, d.Seconds())
	if err != nil {
		return fmt.Errorf("age %s: %w", key, err)
	}
	return nil
}

// CheckAging reports, as one sentence, when the database has no
// rpc_rate_limits(user_id, rpc_name, window_start) for Age to move.
func (t *Transport) CheckAging(ctx context.Context) error {
	if _, err := t.pool.Exec(ctx, `SELECT user_id, rpc_name, window_start FROM rpc_rate_limits LIMIT 0`); err != nil {
		return fmt.Errorf("sql target: TARGET_DB has no rpc_rate_limits(user_id, rpc_name, window_start), spec/004's table, in which rlspec moves a key's window back instead of waiting minutes: %w", err)
	}
	return nil
}

// Close closes the pool.
func (t *Transport) Close() { t.pool.Close() }

// CallerID is the UUID a key calls as: the key itself when it is a UUID,
// otherwise a UUID made from the key's SHA-256.
func CallerID(key string) string {
	if isUUID(key) {
		return strings.ToLower(key)
	}
	h := sha256.Sum256([]byte(key))
	h[6] = h[6]&0x0f | 0x50 // version 5 layout: name-based
	h[8] = h[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case !strings.ContainsRune("0123456789abcdefABCDEF", c):
			return false
		}
	}
	return true
}

func response(req *http.Request, status int, b []byte) *http.Response {
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", status, http.StatusText(status)),
		StatusCode:    status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        http.Header{"Content-Type": {"application/json"}},
		Body:          io.NopCloser(bytes.NewReader(b)),
		ContentLength: int64(len(b)),
		Request:       req,
	}
}

// redactErr keeps a connection string's password out of an error.
func redactErr(err error, dsn string) error {
	if i := strings.Index(dsn, "://"); i >= 0 {
		if at := strings.LastIndex(dsn, "@"); at > i {
			if colon := strings.Index(dsn[i+3:at], ":"); colon >= 0 {
				secret := dsn[i+3+colon+1 : at]
				if secret != "" {
					return errors.New(strings.ReplaceAll(err.Error(), secret, "xxxxx"))
				}
			}
		}
	}
	return err
}
