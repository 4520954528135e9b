-- 0002: a sliding log's allowed requests (model.State.Log; empty for the
-- fixed-window designs, whose state is quota_remaining and reset_utc).
ALTER TABLE rate_limit_buckets ADD COLUMN state_log TEXT NOT NULL DEFAULT '';
