package sqlite

import (
	"context"
	"errors"
	"fmt"
	"runtime"

	"github.com/rlspec/rlspec/reference"
)

// job runs inside the writer's transaction.
type job struct {
	run  func(ctx context.Context) error
	done chan error
}

// checkpointEvery is how many commits pass between WAL checkpoints.
const checkpointEvery = 256

// BatchStats counts the writer's transactions and the Updates they held.
type BatchStats struct{ Batches, Jobs int64 }

// Stats returns the group-commit counters.
func (s *Store) Stats() BatchStats {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	return s.batchStats
}

// submit hands run to the writer and waits for the commit.
func (s *Store) submit(ctx context.Context, run func(ctx context.Context) error) error {
	j := &job{run: run, done: make(chan error, 1)}
	select {
	case s.jobs <- j:
	case <-s.closing:
		return reference.ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	// Once handed over, the job is committed or not by the writer; wait
	// for its verdict so the answer matches the database.
	return <-j.done
}

func (s *Store) writer() {
	defer close(s.stopped)
	defer s.wconn.Close()
	ctx := context.Background()
	batch := make([]*job, 0, s.maxBatch)
	for {
		batch = batch[:0]
		select {
		case j := <-s.jobs:
			batch = append(batch, j)
		case <-s.closing:
			return
		}
	drain:
		for len(batch) < s.maxBatch {
			select {
			case j := <-s.jobs:
				batch = append(batch, j)
			default:
				break drain
			}
		}
		s.runBatch(ctx, batch)
		s.statsMu.Lock()
		s.batchStats.Batches++
		s.batchStats.Jobs += int64(len(batch))
		s.statsMu.Unlock()
		if s.commits++; s.commits%checkpointEvery == 0 {
			// Between batches no transaction of this process is open, so
			// a PASSIVE checkpoint here normally backfills the whole WAL
			// and the next commit restarts it from the top: the WAL stays
			// small and commits overwrite in place (cheaper fsyncs).
			_, _ = s.wconn.ExecContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)") // best effort; retried later
		}
		// Let the callers just answered submit again before the next
		// batch is cut, so batches stay large under steady load.
		runtime.Gosched()
	}
}

// runBatch runs the jobs in one transaction. If one fails the batch is
// rolled back and every job is run again in its own transaction, so one bad
// job cannot fail its neighbours.
func (s *Store) runBatch(ctx context.Context, batch []*job) {
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
			j.done <- err
		}
		return
	}
	for _, j := range batch {
		j.done <- s.inTx(ctx, func() error { return j.run(ctx) })
	}
}

func (s *Store) inTx(ctx context.Context, fn func() error) error {
	if _, err := s.wconn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("begin: %w", busy(err))
	}
	if err := fn(); err != nil {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		return busy(err)
	}
	if _, err := s.wconn.ExecContext(ctx, "COMMIT"); err != nil {
		_, _ = s.wconn.ExecContext(ctx, "ROLLBACK")
		return fmt.Errorf("commit: %w", busy(err))
	}
	return nil
}
