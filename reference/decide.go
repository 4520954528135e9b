package reference

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
)

// txOpts carry the faulty variants' decisions made outside the transaction.
type txOpts struct {
	skipIdemLookup bool // Bugs.ConcurrentReplays: the lookup already missed
	forceRefill    bool // Bugs.ResetRace: an earlier read saw the window expired
}

// Decide is the check-and-spend of one request: the idempotency lookup, the
// window reset (FR-5), the quota check (FR-3), the spend (FR-4), the ingest
// row and the idempotency record, all in one IMMEDIATE transaction. A busy
// database gives ErrBusy and never an allow.
func (s *Store) Decide(ctx context.Context, req Request) (Decision, error) {
	if req.Bucket == "" {
		return Decision{}, errors.New("decide: empty bucket id")
	}
	var opts txOpts
	if s.bugs.CheckThenAct {
		return s.decideCheckThenAct(ctx, req)
	}
	if s.bugs.ConcurrentReplays && req.IdempotencyKey != "" {
		d, hit, err := s.lookupOutside(ctx, req)
		if err != nil || hit {
			return d, err
		}
		opts.skipIdemLookup = true
	}
	if s.bugs.ResetRace && s.enabled {
		row, found, err := s.readBucket(ctx, s.db, req.Bucket)
		if err != nil {
			return Decision{}, err
		}
		opts.forceRefill = found && row.reset <= s.now()
	}
	var d Decision
	err := s.submit(ctx, func(ctx context.Context) error {
		var err error
		d, err = s.decideTx(ctx, req, opts)
		return err
	})
	if err != nil {
		return Decision{}, fmt.Errorf("decide: %w", err)
	}
	return d, nil
}

func (s *Store) now() int64 { return s.clock.Now().Unix() }

// decideTx runs inside the writer's transaction.
func (s *Store) decideTx(ctx context.Context, req Request, opts txOpts) (Decision, error) {
	now := s.now()
	if req.IdempotencyKey != "" && !opts.skipIdemLookup {
		var sha, resp []byte
		var status int
		err := s.stmts.getIdem.QueryRowContext(ctx, req.IdempotencyKey, now-s.retentionSec()).Scan(&sha, &status, &resp)
		switch {
		case err == nil:
			return s.replay(ctx, req, now, sha, status, resp)
		case !errors.Is(err, sql.ErrNoRows):
			return Decision{}, fmt.Errorf("idempotency lookup: %w", err)
		}
	}
	if !s.enabled {
		d := Decision{Outcome: Allowed, Status: 200, Limit: s.limit, Remaining: s.sentinel, Reset: now + s.windowSec()}
		return d, s.ingest(ctx, req, now, &d)
	}
	if s.bugs == (Bugs{}) {
		// Fast path: an unexpired bucket with quota left, in one statement.
		var row bucketRow
		err := s.stmts.spendFast.QueryRowContext(ctx, req.Bucket, now).Scan(&row.remaining, &row.reset)
		switch {
		case err == nil:
			d := s.decision(row, true, now)
			return d, s.ingest(ctx, req, now, &d)
		case !errors.Is(err, sql.ErrNoRows):
			return Decision{}, fmt.Errorf("spend: %w", err)
		}
	}
	row, found, err := s.getBucketTx(ctx, req.Bucket)
	if err != nil {
		return Decision{}, err
	}
	next, write, allowed := s.step(row, found, now, opts.forceRefill)
	if write {
		if _, err := s.stmts.insBucket.ExecContext(ctx, req.Bucket, next.remaining, next.reset); err != nil {
			return Decision{}, fmt.Errorf("write bucket: %w", err)
		}
		s.cachePut(req.Bucket, next)
	}
	d := s.decision(next, allowed, now)
	if !allowed {
		return d, nil
	}
	return d, s.ingest(ctx, req, now, &d)
}

// step is the bucket's state machine: the next state, whether it must be
// written and whether the request is allowed.
func (s *Store) step(row bucketRow, found bool, now int64, forceRefill bool) (next bucketRow, write, allowed bool) {
	w := s.windowSec()
	switch {
	case !found:
		return bucketRow{remaining: s.limit - 1, reset: now + w}, true, true
	case forceRefill || (row.reset <= now && !s.bugs.NoReset):
		next = bucketRow{remaining: s.limit - 1, reset: now + w}
		if s.bugs.ResetKeepsReset {
			next.reset = row.reset
		}
		return next, true, true
	case row.remaining > 0:
		return bucketRow{remaining: row.remaining - 1, reset: row.reset}, true, true
	case s.bugs.LimitedPushesWindow:
		return bucketRow{remaining: row.remaining, reset: now + w}, true, false
	default: // 429 changes nothing
		return row, false, false
	}
}

func (s *Store) decision(b bucketRow, allowed bool, now int64) Decision {
	d := Decision{Limit: s.limit, Remaining: max(b.remaining, 0), Reset: b.reset}
	if allowed {
		d.Outcome, d.Status = Allowed, 200
		return d
	}
	d.Outcome, d.Status = Limited, 429
	d.RetryAfter = max(b.reset-now, 1)
	return d
}

// ingest writes the ride row and, with a key, the idempotency record.
func (s *Store) ingest(ctx context.Context, req Request, now int64, d *Decision) error {
	d.RideID = newRideID()
	d.Body = acceptedBody(d.RideID)
	if _, err := s.stmts.ingest.ExecContext(ctx, d.RideID, req.BodySHA256[:], req.BodyBytes, now); err != nil {
		return fmt.Errorf("ingest: %w", err)
	}
	if req.IdempotencyKey == "" {
		return nil
	}
	if _, err := s.stmts.putIdem.ExecContext(ctx, req.IdempotencyKey, req.BodySHA256[:], d.Status, d.Body, now); err != nil {
		return fmt.Errorf("record idempotency: %w", err)
	}
	return nil
}

// replay answers a request whose key was seen before.
func (s *Store) replay(ctx context.Context, req Request, now int64, sha []byte, status int, resp []byte) (Decision, error) {
	if !bytes.Equal(sha, req.BodySHA256[:]) && !s.bugs.ReplayIgnoresBody {
		d := Decision{Outcome: KeyReused, Status: 422}
		return d, s.peek(ctx, req.Bucket, now, &d)
	}
	d := Decision{Outcome: Replayed, Status: status, Body: resp}
	if s.bugs.ReplaySpends && s.enabled {
		row, found, err := s.getBucketTx(ctx, req.Bucket)
		if err != nil {
			return Decision{}, err
		}
		next, write, _ := s.step(row, found, now, false)
		if write {
			if _, err := s.stmts.insBucket.ExecContext(ctx, req.Bucket, next.remaining, next.reset); err != nil {
				return Decision{}, fmt.Errorf("write bucket: %w", err)
			}
		}
		d.Limit, d.Remaining, d.Reset = s.limit, max(next.remaining, 0), next.reset
		return d, nil
	}
	return d, s.peek(ctx, req.Bucket, now, &d)
}

// peek fills the rate-limit headers from the bucket's current state without
// changing it: an absent or expired bucket shows a full quota and a window
// that would start now.
func (s *Store) peek(ctx context.Context, bucket string, now int64, d *Decision) error {
	d.Limit = s.limit
	if !s.enabled {
		d.Remaining, d.Reset = s.sentinel, now+s.windowSec()
		return nil
	}
	row, found, err := s.getBucketTx(ctx, bucket)
	if err != nil {
		return err
	}
	if !found || (row.reset <= now && !s.bugs.NoReset) {
		d.Remaining, d.Reset = s.limit, now+s.windowSec()
		return nil
	}
	d.Remaining, d.Reset = max(row.remaining, 0), row.reset
	return nil
}

func (s *Store) getBucketTx(ctx context.Context, bucket string) (bucketRow, bool, error) {
	if s.bugs.ProcessCache {
		s.cacheMu.Lock()
		row, ok := s.cache[bucket]
		s.cacheMu.Unlock()
		if ok {
			return row, true, nil
		}
	}
	var row bucketRow
	err := s.stmts.getBucket.QueryRowContext(ctx, bucket).Scan(&row.remaining, &row.reset)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return row, false, nil
	case err != nil:
		return row, false, fmt.Errorf("read bucket: %w", err)
	}
	s.cachePut(bucket, row)
	return row, true, nil
}

func (s *Store) cachePut(bucket string, row bucketRow) {
	if !s.bugs.ProcessCache {
		return
	}
	s.cacheMu.Lock()
	s.cache[bucket] = row
	s.cacheMu.Unlock()
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Store) readBucket(ctx context.Context, q queryer, bucket string) (bucketRow, bool, error) {
	var row bucketRow
	err := q.QueryRowContext(ctx, `SELECT quota_remaining, reset_utc FROM rate_limit_buckets WHERE bucket_id = ?`, bucket).
		Scan(&row.remaining, &row.reset)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return row, false, nil
	case err != nil:
		return row, false, fmt.Errorf("read bucket: %w", busy(err))
	}
	return row, true, nil
}

// lookupOutside is Bugs.ConcurrentReplays: the replay lookup runs in its own
// read, before and apart from the spend transaction.
func (s *Store) lookupOutside(ctx context.Context, req Request) (Decision, bool, error) {
	now := s.now()
	var sha, resp []byte
	var status int
	err := s.db.QueryRowContext(ctx, `SELECT body_sha256, status, response FROM idempotency_keys WHERE idem_key = ? AND created_utc > ?`,
		req.IdempotencyKey, now-s.retentionSec()).Scan(&sha, &status, &resp)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Decision{}, false, nil
	case err != nil:
		return Decision{}, false, fmt.Errorf("idempotency lookup: %w", busy(err))
	}
	var d Decision
	err = s.submit(ctx, func(ctx context.Context) error {
		var err error
		d, err = s.replay(ctx, req, now, sha, status, resp)
		return err
	})
	return d, true, err
}

// decideCheckThenAct is Bugs.CheckThenAct: read the bucket in one
// transaction, decide in Go, write the absolute result in another.
// Concurrent requests read the same quota and each spend it.
func (s *Store) decideCheckThenAct(ctx context.Context, req Request) (Decision, error) {
	if req.IdempotencyKey != "" {
		d, hit, err := s.lookupOutside(ctx, req)
		if err != nil || hit {
			return d, err
		}
	}
	now := s.now()
	if !s.enabled {
		d := Decision{Outcome: Allowed, Status: 200, Limit: s.limit, Remaining: s.sentinel, Reset: now + s.windowSec()}
		return d, s.submit(ctx, func(ctx context.Context) error { return s.ingest(ctx, req, now, &d) })
	}
	row, found, err := s.readBucket(ctx, s.db, req.Bucket)
	if err != nil {
		return Decision{}, err
	}
	next, write, allowed := s.step(row, found, now, false)
	runtime.Gosched() // the window between check and act
	if write {
		if _, err := s.db.ExecContext(ctx, `INSERT INTO rate_limit_buckets (bucket_id, quota_remaining, reset_utc) VALUES (?, ?, ?)
			ON CONFLICT (bucket_id) DO UPDATE SET quota_remaining = excluded.quota_remaining, reset_utc = excluded.reset_utc`,
			req.Bucket, next.remaining, next.reset); err != nil {
			return Decision{}, fmt.Errorf("write bucket: %w", busy(err))
		}
	}
	d := s.decision(next, allowed, now)
	if !allowed {
		return d, nil
	}
	err = s.submit(ctx, func(ctx context.Context) error { return s.ingest(ctx, req, now, &d) })
	return d, err
}

// BucketState reads a bucket's stored row (for tests and inspection).
func (s *Store) BucketState(ctx context.Context, bucket string) (remaining int, reset int64, found bool, err error) {
	row, found, err := s.readBucket(ctx, s.db, bucket)
	return row.remaining, row.reset, found, err
}

// CleanupStats counts what Cleanup deleted.
type CleanupStats struct {
	Buckets, IdempotencyKeys, Rides int64
}

// Cleanup deletes buckets idle for longer than the retention (their window
// ended more than the retention ago, so their last request is older still),
// expired idempotency records and old ingest rows (spec/000 retention).
func (s *Store) Cleanup(ctx context.Context) (CleanupStats, error) {
	var st CleanupStats
	err := s.submit(ctx, func(ctx context.Context) error {
		cut := s.now() - s.retentionSec()
		for _, q := range []struct {
			sql string
			n   *int64
		}{
			{`DELETE FROM rate_limit_buckets WHERE reset_utc < ?`, &st.Buckets},
			{`DELETE FROM idempotency_keys WHERE created_utc <= ?`, &st.IdempotencyKeys},
			{`DELETE FROM ride_ingest WHERE received_utc <= ?`, &st.Rides},
		} {
			res, err := s.wconn.ExecContext(ctx, q.sql, cut)
			if err != nil {
				return fmt.Errorf("cleanup: %w", err)
			}
			*q.n, _ = res.RowsAffected()
		}
		return nil
	})
	if err != nil {
		return CleanupStats{}, err
	}
	if s.bugs.ProcessCache {
		s.cacheMu.Lock()
		clear(s.cache)
		s.cacheMu.Unlock()
	}
	return st, nil
}
