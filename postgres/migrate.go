package postgres

import (
	"context"
	"fmt"
)

// schema is FR-1's table layout plus the reference's idempotency and
// ingest tables, as on SQLite; created when absent.
const schema = `
CREATE TABLE IF NOT EXISTS rate_limit_buckets (
    bucket_id       TEXT PRIMARY KEY,
    quota_remaining INTEGER NOT NULL,
    reset_utc       BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS rate_limit_buckets_reset ON rate_limit_buckets (reset_utc);
-- a sliding log's allowed requests (model.State.Log); empty for fixed windows
ALTER TABLE rate_limit_buckets ADD COLUMN IF NOT EXISTS state_log TEXT NOT NULL DEFAULT '';
-- a key's violation record under penalties (model.State.Penalty), unix ms
ALTER TABLE rate_limit_buckets ADD COLUMN IF NOT EXISTS penalty_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rate_limit_buckets ADD COLUMN IF NOT EXISTS penalty_last_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE rate_limit_buckets ADD COLUMN IF NOT EXISTS penalty_until_ms BIGINT NOT NULL DEFAULT 0;
CREATE TABLE IF NOT EXISTS idempotency_keys (
    idem_key    TEXT PRIMARY KEY,
    body_sha256 BYTEA NOT NULL,
    status      INTEGER NOT NULL,
    response    BYTEA NOT NULL,
    created_utc BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_utc);
CREATE TABLE IF NOT EXISTS ride_ingest (
    id           BIGSERIAL PRIMARY KEY,
    ride_id      TEXT NOT NULL,
    body_sha256  BYTEA NOT NULL,
    body_bytes   INTEGER NOT NULL,
    received_utc BIGINT NOT NULL
);`

// migrate creates the tables under an advisory lock, so instances starting
// together do not race each other's CREATE.
func (s *Store) migrate(ctx context.Context) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("postgres store: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(0, 0)`); err != nil {
		return fmt.Errorf("postgres store: migrate lock: %w", err)
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock(0, 0)`) }()
	if _, err := conn.Exec(ctx, schema); err != nil {
		return fmt.Errorf("postgres store: migrate: %w", err)
	}
	return nil
}
