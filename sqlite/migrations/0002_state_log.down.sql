ALTER TABLE rate_limit_buckets DROP COLUMN state_log;
