package storetest

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"sync"
	"testing"

	"github.com/rlspec/rlspec/reference"
)

// OpenShared returns n stores on one fresh, empty database, as n instances
// of one service hold it (profiles.md MI-1); the suite closes them.
type OpenShared func(t testing.TB, n int) []reference.Store

// SharedProperties are the tests of a database shared by several stores,
// by name.
func SharedProperties() map[string]func(testing.TB, OpenShared) {
	return map[string]func(testing.TB, OpenShared){
		"SeeEachOther": TestSharedSeeEachOther,
		"Serialisable": TestSharedSerialisable,
	}
}

// RunShared runs every shared-database test as a subtest.
func RunShared(t *testing.T, open OpenShared) {
	t.Helper()
	runAll(t, SharedProperties(), open)
}

// OnOneFile is the OpenShared of stores on one fresh database file:
// open opens one store on path, and is called n times.
func OnOneFile(open func(path string) (reference.Store, error)) OpenShared {
	return func(t testing.TB, n int) []reference.Store {
		path := filepath.Join(t.TempDir(), "rl.db")
		ss := make([]reference.Store, n)
		for i := range ss {
			s, err := open(path)
			if err != nil {
				t.Fatal(err)
			}
			ss[i] = s
		}
		return ss
	}
}

func freshShared(t testing.TB, open OpenShared, n int) []reference.Store {
	t.Helper()
	ss := open(t, n)
	for _, s := range ss {
		t.Cleanup(func() { _ = s.Close() })
	}
	return ss
}

// increment is a check-and-spend's shape: read the counter, write it plus
// one, ingest a ride named after the new value. want, when >= 0, is the
// value the read must find.
func increment(ctx context.Context, s reference.Store, want int) error {
	return s.Update(ctx, func(ctx context.Context, tx reference.Tx) error {
		st, err := tx.Bucket(ctx, "counter")
		if err != nil {
			return err
		}
		if want >= 0 && st.Remaining != want {
			return fmt.Errorf("read counter %d, want %d: a write through another store went unseen", st.Remaining, want)
		}
		st.Remaining++
		if err := tx.PutBucket(ctx, "counter", st); err != nil {
			return err
		}
		return tx.Ingest(ctx, reference.Ride{ID: fmt.Sprint(st.Remaining), BodySHA256: sum("r"), BodyBytes: 1, Received: 1})
	})
}

// rides counts the ingest rows (Cleanup deletes them all and says how many).
func rides(t testing.TB, s reference.Store) int64 {
	t.Helper()
	st, err := s.Cleanup(context.Background(), math.MaxInt64)
	if err != nil {
		t.Fatalf("cleanup: %v", err)
	}
	return st.Rides
}

// TestSharedSeeEachOther: each store reads what the others wrote before,
// however often it has itself read and written the bucket.
func TestSharedSeeEachOther(t testing.TB, open OpenShared) {
	ss := freshShared(t, open, 3)
	const n = 30
	for i := range n {
		if err := increment(context.Background(), ss[i%len(ss)], i); err != nil {
			t.Fatalf("update %d through store %d: %v", i, i%len(ss), err)
		}
	}
	for i, s := range ss {
		if st := bucketOf(t, s, "counter"); st.Remaining != n {
			t.Fatalf("store %d reads %d after %d increments", i, st.Remaining, n)
		}
	}
	if got := rides(t, ss[0]); got != n {
		t.Fatalf("%d rides after %d increments", got, n)
	}
}

// TestSharedSerialisable: concurrent increments through several stores lose
// none, and only the Updates that took effect left a ride.
func TestSharedSerialisable(t testing.TB, open OpenShared) {
	ss := freshShared(t, open, 3)
	const n = 150
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- increment(context.Background(), ss[i%len(ss)], -1)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("update: %v", err)
		}
	}
	if st := bucketOf(t, ss[0], "counter"); st.Remaining != n {
		t.Fatalf("counter %d after %d increments through %d stores", st.Remaining, n, len(ss))
	}
	if got := rides(t, ss[0]); got != n {
		t.Fatalf("%d rides after %d increments", got, n)
	}
}
