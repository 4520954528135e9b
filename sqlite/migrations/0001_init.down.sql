DROP TABLE IF EXISTS ride_ingest;
DROP TABLE IF EXISTS idempotency_keys;
DROP TABLE IF EXISTS rate_limit_buckets;
