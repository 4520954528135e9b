ALTER TABLE rate_limit_buckets DROP COLUMN penalty_until_ms;
ALTER TABLE rate_limit_buckets DROP COLUMN penalty_last_ms;
ALTER TABLE rate_limit_buckets DROP COLUMN penalty_count;
