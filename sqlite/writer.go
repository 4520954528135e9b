package sqlite

import (
	"context"
	"errors"
	"fmt"

	"github.com/rlspec/rlspec/reference"
)

// job runs inside the writer's transaction. done gets one verdict: the
// commit's outcome, or leadership (the job's caller commits the next batch
// itself).
type job struct {
	run      func(ctx context.Context) error
	done     chan verdict
	answered bool // the leader has sent the outcome (leader only)
}

type verdict struct {
	err  error
	lead bool
}

// checkpointEvery is how many commits pass between WAL checkpoints.
const checkpointEvery = 256

// BatchStats counts the writer's transactions and the Updates they held.
type BatchStats struct{ Batches, Jobs int64 }

// Stats returns the group-commit counters.
func (s *Store) Stats() BatchStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.batchStats
}

// submit queues run and waits for the commit. The writer is not a
// goroutine of its own: the caller that finds nobody committing commits
// the queue itself (it leads), so a lone caller's Update runs on its own
// goroutine with no hand-over to wake another thread for, and back, around
// each fsync. Callers arriving meanwhile queue; once its own job is
// committed the leader hands the lead to the oldest queued caller, who
// commits everything queued by then in one transaction (group commit).
func (s *Store) submit(ctx context.Context, run func(ctx context.Context) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	j := &job{run: run, done: make(chan verdict, 1)}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return reference.ErrClosed
	}
	s.queue = append(s.queue, j)
	if s.leading {
		s.mu.Unlock()
		// Once queued, the job is committed or not by a leader: wait for
		// the verdict so the answer matches the database.
		if v := <-j.done; !v.lead {
			return v.err
		}
		s.mu.Lock()
	}
	s.leading = true
	return s.lead(j)
}

// lead commits batches of the queue until j's is committed, then hands the
// lead on (or ends it). It is called with s.mu held and returns j's
// outcome with s.mu released.
func (s *Store) lead(j *job) error {
	ctx := context.Background()
	var batch []*job
	defer func() {
		// An Update that panics unwinds the leading caller's goroutine
		// (an HTTP server recovers it): roll back, answer the batch's
		// other callers with an error and pass the lead on, so the store
		// serves the next callers.
		if p := recover(); p != nil {
			_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
			for _, o := range batch {
				if !o.answered {
					o.answered = true
					o.done <- verdict{err: fmt.Errorf("update panicked: %v", p)}
				}
			}
			s.mu.Lock()
			s.handOn()
			s.mu.Unlock()
			panic(p)
		}
	}()
	for !j.answered {
		n := min(len(s.queue), s.maxBatch)
		batch = s.queue[:n:n]
		s.queue = s.queue[n:]
		s.mu.Unlock()
		s.runBatch(ctx, batch)
		if s.commits++; s.commits%checkpointEvery == 0 {
			// Between batches no transaction of this process is open, so
			// a PASSIVE checkpoint here normally backfills the whole WAL
			// and the next commit restarts it from the top: the WAL stays
			// small and commits overwrite in place (cheaper fsyncs).
			_, _ = s.wconn.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)") // best effort; retried later
		}
		s.mu.Lock()
		s.batchStats.Batches++
		s.batchStats.Jobs += int64(len(batch))
	}
	batch = nil
	s.handOn()
	s.mu.Unlock()
	return (<-j.done).err
}

// handOn gives the lead to the oldest queued caller, or ends it; s.mu is
// held.
func (s *Store) handOn() {
	if len(s.queue) > 0 {
		s.queue[0].done <- verdict{lead: true}
		return
	}
	s.leading = false
	s.idle.Broadcast()
}

// runBatch runs the jobs in one transaction and answers them. If one fails
// the batch is rolled back and every job is run again in its own
// transaction, so one bad job cannot fail its neighbours.
func (s *Store) runBatch(ctx context.Context, batch []*job) {
	answer := func(j *job, err error) {
		j.answered = true
		j.done <- verdict{err: err}
	}
	err := s.inTx(ctx, func() error {
		for _, j := range batch {
			if err := j.run(ctx); err != nil {
				return err
			}
		}
		return nil
	})
	// A busy database (BEGIN or COMMIT timed out on the lock) is not one
	// job's fault: retrying each job would wait the busy timeout once per
	// job, so every job gets ErrBusy at once.
	if err == nil || len(batch) == 1 || errors.Is(err, reference.ErrBusy) {
		for _, j := range batch {
			answer(j, err)
		}
		return
	}
	for _, j := range batch {
		answer(j, s.inTx(ctx, func() error { return j.run(ctx) }))
	}
}

func (s *Store) inTx(ctx context.Context, fn func() error) error {
	clear(s.wtx.rows)
	if _, err := s.wtx.begin.ExecContext(ctx); err != nil {
		return fmt.Errorf("begin: %w", busy(err))
	}
	if err := fn(); err != nil {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		return busy(err)
	}
	if _, err := s.wtx.commit.ExecContext(ctx); err != nil {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("commit: %w", busy(err))
	}
	return nil
}
