// Package storetest is the behaviour suite every reference.Store adapter
// must pass, written once and run from each adapter's _test.go, in the
// spirit of throttled's store/storetest.
//
//	func TestStore(t *testing.T) { storetest.Run(t, func(t testing.TB) reference.Store { … }) }
//
// It checks what the reference relies on: buckets, idempotency records and
// ingest rows read back as written; a failed Update leaves nothing; View
// reads committed state and cannot write; concurrent Updates are
// serialisable; Cleanup deletes by age; a closed store refuses work; and
// the reference on the store decides every design (the sliding-window
// counter, the leaky bucket, the grids) as the design does in memory, and
// atomically under concurrency (TestDesigns, TestDesignsAtomic).
// Engine-specific behaviour (lock timeouts, files, processes) is tested
// beside the adapter; Postgres and OnOneFile give those tests, and the
// suite's, their throwaway PostgreSQL cluster or stores on one file.
package storetest

import (
	"context"
	"crypto/sha256"
	"errors"
	"sync"
	"testing"

	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/reference"
)

// Open returns a fresh, empty store; the suite closes it (Close may be
// called more than once).
type Open func(t testing.TB) reference.Store

// Properties are the suite's tests by name.
func Properties() map[string]func(testing.TB, Open) {
	return map[string]func(testing.TB, Open){
		"Buckets":            TestBuckets,
		"Log":                TestLog,
		"Idempotency":        TestIdempotency,
		"FailedUpdateLeaves": TestFailedUpdateLeavesNothing,
		"View":               TestView,
		"Serialisable":       TestSerialisable,
		"Cleanup":            TestCleanup,
		"Closed":             TestClosed,
		"Designs":            TestDesigns,
		"DesignsAtomic":      TestDesignsAtomic,
	}
}

// Run runs every test of the suite as a subtest.
func Run(t *testing.T, open Open) {
	t.Helper()
	runAll(t, Properties(), open)
}

func runAll[O any](t *testing.T, props map[string]func(testing.TB, O), open O) {
	t.Helper()
	for name, test := range props {
		t.Run(name, func(t *testing.T) { test(t, open) })
	}
}

func fresh(t testing.TB, open Open) reference.Store {
	t.Helper()
	s := open(t)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func update(t testing.TB, s reference.Store, fn func(ctx context.Context, tx reference.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("update: %v", err)
	}
}

func bucketOf(t testing.TB, s reference.Store, id string) model.State {
	t.Helper()
	var st model.State
	err := s.View(context.Background(), func(ctx context.Context, tx reference.Tx) error {
		var err error
		st, err = tx.Bucket(ctx, id)
		return err
	})
	if err != nil {
		t.Fatalf("view bucket: %v", err)
	}
	return st
}

func sum(s string) [32]byte { return sha256.Sum256([]byte(s)) }

var errBoom = errors.New("boom")

// TestBuckets: an absent bucket reads as the zero State; a put reads back
// (Found set) and a second put replaces it.
func TestBuckets(t testing.TB, open Open) {
	s := fresh(t, open)
	if st := bucketOf(t, s, "b1"); st != (model.State{}) {
		t.Fatalf("absent bucket: %+v", st)
	}
	update(t, s, func(ctx context.Context, tx reference.Tx) error {
		return tx.PutBucket(ctx, "b1", model.State{Found: true, Remaining: 7, Reset: 1_800_000_000})
	})
	if st := bucketOf(t, s, "b1"); st != (model.State{Found: true, Remaining: 7, Reset: 1_800_000_000}) {
		t.Fatalf("after put: %+v", st)
	}
	update(t, s, func(ctx context.Context, tx reference.Tx) error {
		if st, err := tx.Bucket(ctx, "b1"); err != nil || st.Remaining != 7 {
			t.Errorf("read in update: %+v %v", st, err)
		}
		return tx.PutBucket(ctx, "b1", model.State{Found: true, Remaining: -1, Reset: 5})
	})
	if st := bucketOf(t, s, "b1"); st != (model.State{Found: true, Remaining: -1, Reset: 5}) {
		t.Fatalf("after replace: %+v", st)
	}
	if st := bucketOf(t, s, "b2"); st.Found {
		t.Fatalf("another bucket: %+v", st)
	}
}

// TestLog: a sliding log's State.Log (model.EncodeLog, up to a long log)
// and a penalty record (State.Penalty) read back as written, a put
// replaces them and empty ones clear them.
func TestLog(t testing.TB, open Open) {
	s := fresh(t, open)
	long := make([]int64, 500)
	for i := range long {
		long[i] = 1_800_000_000_000 + int64(i)
	}
	for _, st := range []model.State{
		{Found: true, Remaining: 2, Reset: 1_800_000_003, Log: model.EncodeLog([]int64{1_800_000_000_000, 1_800_000_000_999})},
		{Found: true, Remaining: 0, Reset: 1_800_000_004, Log: model.EncodeLog(long)},
		{Found: true, Remaining: 0, Reset: 1_800_000_004, Penalty: model.Penalty{Count: 3, Last: 1_800_000_001_500, Until: 1_800_000_009_500}},
		{Found: true, Remaining: 5, Reset: 1_800_000_005},
	} {
		update(t, s, func(ctx context.Context, tx reference.Tx) error { return tx.PutBucket(ctx, "log", st) })
		if got := bucketOf(t, s, "log"); got != st {
			t.Fatalf("put %+v, read %+v", st, got)
		}
	}
}

// TestIdempotency: a record reads back with its response and tells whether
// the body matches; records created at or before since are not found; a put
// replaces.
func TestIdempotency(t testing.TB, open Open) {
	s := fresh(t, open)
	lookup := func(key, body string, since int64) reference.Replay {
		t.Helper()
		var rp reference.Replay
		update(t, s, func(ctx context.Context, tx reference.Tx) error {
			var err error
			rp, err = tx.Idempotency(ctx, key, sum(body), since)
			return err
		})
		return rp
	}
	if rp := lookup("k", "a", 0); rp.Found {
		t.Fatalf("absent key found: %+v", rp)
	}
	update(t, s, func(ctx context.Context, tx reference.Tx) error {
		return tx.PutIdempotency(ctx, "k", reference.Record{BodySHA256: sum("a"), Status: 200, Response: []byte(`{"x":1}`), Created: 100})
	})
	if rp := lookup("k", "a", 99); !rp.Found || !rp.SameBody || rp.Status != 200 || string(rp.Response) != `{"x":1}` {
		t.Fatalf("same body: %+v", rp)
	}
	if rp := lookup("k", "b", 99); !rp.Found || rp.SameBody {
		t.Fatalf("other body: %+v", rp)
	}
	if rp := lookup("k", "a", 100); rp.Found {
		t.Fatalf("expired record found: %+v", rp)
	}
	update(t, s, func(ctx context.Context, tx reference.Tx) error {
		return tx.PutIdempotency(ctx, "k", reference.Record{BodySHA256: sum("b"), Status: 201, Response: []byte(`{}`), Created: 200})
	})
	if rp := lookup("k", "b", 150); !rp.Found || !rp.SameBody || rp.Status != 201 {
		t.Fatalf("replaced record: %+v", rp)
	}
}

// TestFailedUpdateLeavesNothing: an Update whose fn fails returns that error
// and none of its writes remain.
func TestFailedUpdateLeavesNothing(t testing.TB, open Open) {
	s := fresh(t, open)
	err := s.Update(context.Background(), func(ctx context.Context, tx reference.Tx) error {
		if err := tx.PutBucket(ctx, "b", model.State{Found: true, Remaining: 1, Reset: 9}); err != nil {
			return err
		}
		if err := tx.PutIdempotency(ctx, "k", reference.Record{BodySHA256: sum("a"), Status: 200, Response: []byte("r"), Created: 9}); err != nil {
			return err
		}
		if err := tx.Ingest(ctx, reference.Ride{ID: "r1", BodySHA256: sum("a"), BodyBytes: 1, Received: 9}); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("update error %v, want %v", err, errBoom)
	}
	if st := bucketOf(t, s, "b"); st.Found {
		t.Fatalf("bucket of a failed update: %+v", st)
	}
	st, err := s.Cleanup(context.Background(), 1<<40)
	if err != nil || st.IdempotencyKeys != 0 || st.Rides != 0 {
		t.Fatalf("rows of a failed update: %+v %v", st, err)
	}
}

// TestView: View sees committed writes and refuses its own.
func TestView(t testing.TB, open Open) {
	s := fresh(t, open)
	update(t, s, func(ctx context.Context, tx reference.Tx) error {
		return tx.PutBucket(ctx, "b", model.State{Found: true, Remaining: 3, Reset: 9})
	})
	err := s.View(context.Background(), func(ctx context.Context, tx reference.Tx) error {
		if st, err := tx.Bucket(ctx, "b"); err != nil || st.Remaining != 3 {
			t.Errorf("view read: %+v %v", st, err)
		}
		return tx.PutBucket(ctx, "b", model.State{Found: true, Remaining: 0, Reset: 9})
	})
	if !errors.Is(err, reference.ErrReadOnly) {
		t.Fatalf("write in view: %v, want ErrReadOnly", err)
	}
	if st := bucketOf(t, s, "b"); st.Remaining != 3 {
		t.Fatalf("view wrote: %+v", st)
	}
}

// TestSerialisable: concurrent read-modify-write Updates of one bucket lose
// none of their increments.
func TestSerialisable(t testing.TB, open Open) {
	s := fresh(t, open)
	const n = 200
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- s.Update(context.Background(), func(ctx context.Context, tx reference.Tx) error {
				st, err := tx.Bucket(ctx, "counter")
				if err != nil {
					return err
				}
				st.Remaining++
				return tx.PutBucket(ctx, "counter", st)
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("update: %v", err)
		}
	}
	if st := bucketOf(t, s, "counter"); st.Remaining != n {
		t.Fatalf("counter %d after %d increments", st.Remaining, n)
	}
}

// TestCleanup: buckets with Reset before cut and records and rides created
// at or before cut go; the rest stay.
func TestCleanup(t testing.TB, open Open) {
	s := fresh(t, open)
	update(t, s, func(ctx context.Context, tx reference.Tx) error {
		for _, b := range []struct {
			id    string
			reset int64
		}{{"old", 99}, {"edge", 100}, {"new", 101}} {
			if err := tx.PutBucket(ctx, b.id, model.State{Found: true, Remaining: 1, Reset: b.reset}); err != nil {
				return err
			}
		}
		for i, at := range []int64{99, 100, 101} {
			k := string(rune('a' + i))
			if err := tx.PutIdempotency(ctx, k, reference.Record{BodySHA256: sum(k), Status: 200, Response: []byte("r"), Created: at}); err != nil {
				return err
			}
			if err := tx.Ingest(ctx, reference.Ride{ID: k, BodySHA256: sum(k), BodyBytes: 1, Received: at}); err != nil {
				return err
			}
		}
		return nil
	})
	st, err := s.Cleanup(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if st != (reference.CleanupStats{Buckets: 1, IdempotencyKeys: 2, Rides: 2}) {
		t.Fatalf("cleanup: %+v", st)
	}
	for id, want := range map[string]bool{"old": false, "edge": true, "new": true} {
		if got := bucketOf(t, s, id).Found; got != want {
			t.Errorf("bucket %s kept=%v, want %v", id, got, want)
		}
	}
}

// TestClosed: after Close, Update fails with ErrClosed.
func TestClosed(t testing.TB, open Open) {
	s := fresh(t, open)
	if err := s.Ping(context.Background()); err != nil {
		t.Fatalf("ping: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	err := s.Update(context.Background(), func(context.Context, reference.Tx) error { return nil })
	if !errors.Is(err, reference.ErrClosed) {
		t.Fatalf("update after close: %v, want ErrClosed", err)
	}
}
