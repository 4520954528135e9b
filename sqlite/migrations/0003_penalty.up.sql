-- 0003: a key's violation record when penalties wrap the design
-- (model.State.Penalty, spec/003's rate_limit_penalties row): violations
-- counted, the last one and the end of the penalty it started, unix ms.
ALTER TABLE rate_limit_buckets ADD COLUMN penalty_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rate_limit_buckets ADD COLUMN penalty_last_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rate_limit_buckets ADD COLUMN penalty_until_ms INTEGER NOT NULL DEFAULT 0;
