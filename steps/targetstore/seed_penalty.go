package targetstore

import (
	"context"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/steps/penalties"
)

var _ penalties.PenaltyAger = (*DBSeeder)(nil)

// AgePenalty moves the violation record of key into the past by `by` and
// ends its penalty. It updates the reference's layout (rate_limit_buckets'
// penalty_last_ms and penalty_until_ms, bucket_id the key or user:<key>)
// and, when that finds no row, spec/003's rate_limit_penalties
// (last_violation_at unix seconds on SQLite, TIMESTAMPTZ on PostgreSQL;
// user_id the key).
func (s *DBSeeder) AgePenalty(ctx context.Context, key string, by time.Duration) error {
	p := s.placeholder
	ref := "UPDATE rate_limit_buckets SET penalty_last_ms = penalty_last_ms - " + p(1) + ", penalty_until_ms = 0 WHERE bucket_id IN (" + p(2) + ", " + p(3) + ")"
	res, err := s.db.ExecContext(ctx, ref, by.Milliseconds(), key, "user:"+key)
	if err == nil {
		if n, rerr := res.RowsAffected(); rerr == nil && n > 0 {
			return nil
		}
	}
	spec := "UPDATE rate_limit_penalties SET last_violation_at = last_violation_at - " + p(1) + ", penalty_until = NULL WHERE user_id = " + p(2)
	arg := any(int64(by / time.Second))
	if s.placeholder(1) == "$1" {
		spec = "UPDATE rate_limit_penalties SET last_violation_at = last_violation_at - make_interval(secs => " + p(1) + "), penalty_until = NULL WHERE user_id = " + p(2)
		arg = by.Seconds()
	}
	res, err2 := s.db.ExecContext(ctx, spec, arg, key)
	if err2 == nil {
		if n, rerr := res.RowsAffected(); rerr == nil && n > 0 {
			return nil
		}
	}
	return fmt.Errorf("age the violation record: TARGET_DB has neither rate_limit_buckets.penalty_last_ms for bucket_id %q (%v) "+
		"nor a rate_limit_penalties row with user_id %q (%v)", key, err, key, err2)
}
