-- 0001: the rate limiter's state (PRD FR-1), idempotency records (FR-6) and
-- the ingest table standing in for segment_stats (FR-3/FR-4).
CREATE TABLE rate_limit_buckets (
    bucket_id       TEXT PRIMARY KEY,
    quota_remaining INTEGER NOT NULL,
    reset_utc       INTEGER NOT NULL
) STRICT;

CREATE INDEX rate_limit_buckets_reset ON rate_limit_buckets (reset_utc);

CREATE TABLE idempotency_keys (
    idem_key    TEXT PRIMARY KEY,
    body_sha256 BLOB NOT NULL,
    status      INTEGER NOT NULL,
    response    BLOB NOT NULL,
    created_utc INTEGER NOT NULL
) STRICT;

CREATE INDEX idempotency_keys_created ON idempotency_keys (created_utc);

-- ride_ingest holds no bucket id and no address (PRD §6: no linkage).
-- ride_id is 128 random bits; it is not indexed (nothing looks rides up by
-- it), and the daily cleanup scans: both keep the hot path to one b-tree.
CREATE TABLE ride_ingest (
    id           INTEGER PRIMARY KEY,
    ride_id      TEXT NOT NULL,
    body_sha256  BLOB NOT NULL,
    body_bytes   INTEGER NOT NULL,
    received_utc INTEGER NOT NULL
) STRICT;
