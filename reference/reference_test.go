package reference_test

import (
	"bytes"
	"context"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/reference"
)

func wantHeaders(t *testing.T, d reference.Decision, outcome reference.Outcome, remaining int, reset int64) {
	t.Helper()
	if d.Outcome != outcome || d.Remaining != remaining || d.Reset != reset {
		t.Fatalf("got %v Remaining=%d Reset=%d, want %v Remaining=%d Reset=%d", d.Outcome, d.Remaining, d.Reset, outcome, remaining, reset)
	}
}

// AC1: a fresh bucket gets 200, Remaining = limit-1, Reset = now + window;
// the window starts with the first request.
func TestFirstRequestStartsWindow(t *testing.T) {
	s, clk := openTest(t)
	now := clk.Now().Unix()
	d := mustDecide(t, s, req(bucket(1)))
	wantHeaders(t, d, reference.Allowed, 499, now+3600)
	if d.Status != 200 || d.Limit != 500 || !bytes.Contains(d.Body, []byte(`"status":"accepted"`)) || d.RideID == "" {
		t.Fatalf("decision %+v body %s", d, d.Body)
	}
	rem, reset, found, err := s.BucketState(context.Background(), bucket(1))
	if err != nil || !found || rem != 499 || reset != now+3600 {
		t.Fatalf("stored %d %d %v %v", rem, reset, found, err)
	}
	clk.Advance(10 * time.Second)
	wantHeaders(t, mustDecide(t, s, req(bucket(1))), reference.Allowed, 498, now+3600)
	// Other buckets are independent.
	wantHeaders(t, mustDecide(t, s, req(bucket(2))), reference.Allowed, 499, now+3610)
}

// AC2, AC3 / FR-3: one unit left gives 200 Remaining 0; then 429 with
// Retry-After, and a 429 changes nothing, also later in the window.
func TestExhaustionAnd429ChangesNothing(t *testing.T) {
	s, clk := openTest(t)
	b := bucket(1)
	now := clk.Now().Unix()
	mustDecide(t, s, req(b))
	seed(t, s, b, 1, now+3600)
	wantHeaders(t, mustDecide(t, s, req(b)), reference.Allowed, 0, now+3600)
	rides := rowCount(t, s, "ride_ingest")
	for i := 0; i < 3; i++ {
		clk.Advance(7 * time.Second)
		d := mustDecide(t, s, req(b))
		wantHeaders(t, d, reference.Limited, 0, now+3600)
		want := now + 3600 - clk.Now().Unix()
		if d.Status != 429 || d.RetryAfter != want || d.Body != nil || d.RideID != "" {
			t.Fatalf("429 decision %+v, want RetryAfter %d", d, want)
		}
		rem, reset, _, _ := s.BucketState(context.Background(), b)
		if rem != 0 || reset != now+3600 {
			t.Fatalf("429 changed state: %d %d", rem, reset)
		}
	}
	if got := rowCount(t, s, "ride_ingest"); got != rides {
		t.Fatalf("429 ingested: %d rows, want %d", got, rides)
	}
	// Retry-After is at least 1 just before the reset.
	clk.Set(time.Unix(now+3599, 900e6))
	if d := mustDecide(t, s, req(b)); d.Outcome != reference.Limited || d.RetryAfter != 1 {
		t.Fatalf("last second: %+v", d)
	}
}

// AC4 / FR-5: the window resets at reset_utc (not before), once; the new
// window is now + window.
func TestWindowReset(t *testing.T) {
	s, clk := openTest(t, withLimit(3), withWindow(10*time.Second))
	b := bucket(1)
	start := clk.Now().Unix()
	for i := 2; i >= 0; i-- {
		wantHeaders(t, mustDecide(t, s, req(b)), reference.Allowed, i, start+10)
	}
	clk.Advance(9 * time.Second)
	wantHeaders(t, mustDecide(t, s, req(b)), reference.Limited, 0, start+10)
	clk.Advance(time.Second) // now == reset_utc
	now := clk.Now().Unix()
	wantHeaders(t, mustDecide(t, s, req(b)), reference.Allowed, 2, now+10)
	wantHeaders(t, mustDecide(t, s, req(b)), reference.Allowed, 1, now+10)
	// A seeded past reset (the harness's TARGET_DB) resets too.
	seed(t, s, b, 0, now-100)
	wantHeaders(t, mustDecide(t, s, req(b)), reference.Allowed, 2, now+10)
}

// AC4: requests racing at the boundary refill once: at most limit 200s in
// the new window, with distinct Remaining values.
func TestResetOnceUnderConcurrency(t *testing.T) {
	s, clk := openTest(t, withLimit(20), withWindow(60*time.Second))
	b := bucket(1)
	mustDecide(t, s, req(b))
	seed(t, s, b, 0, clk.Now().Unix()+60)
	clk.Advance(61 * time.Second)
	ds := concurrent(t, s, 100, func(int) reference.Request { return req(b) })
	checkSpends(t, ds, 20, 20)
}

func concurrent(t *testing.T, s *env, n int, mk func(i int) reference.Request) []reference.Decision {
	t.Helper()
	ds := make([]reference.Decision, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			ds[i], errs[i] = s.Decide(context.Background(), mk(i))
		}(i)
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	return ds
}

// checkSpends: exactly min(n, q) allowed with Remaining q-1 … q-min(n,q),
// each once; the rest limited.
func checkSpends(t *testing.T, ds []reference.Decision, q, wantAllowed int) {
	t.Helper()
	var rems []int
	for _, d := range ds {
		switch d.Outcome {
		case reference.Allowed:
			rems = append(rems, d.Remaining)
		case reference.Limited:
			if d.Remaining != 0 {
				t.Fatalf("429 with Remaining %d", d.Remaining)
			}
		default:
			t.Fatalf("outcome %v", d.Outcome)
		}
	}
	if len(rems) != wantAllowed {
		t.Fatalf("%d allowed, want %d", len(rems), wantAllowed)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(rems)))
	for i, r := range rems {
		if r != q-1-i {
			t.Fatalf("Remaining values %v, want %d…%d each once", rems, q-1, q-wantAllowed)
		}
	}
}

// AC7 / FR-4: 1,000 concurrent spends on one bucket with 500 left: exactly
// 500 succeed, Remaining 499…0 each once.
func TestThousandConcurrentSpends(t *testing.T) {
	s, _ := openTest(t)
	b := bucket(7)
	ds := concurrent(t, s, 1000, func(int) reference.Request { return req(b) })
	checkSpends(t, ds, 500, 500)
	if n := rowCount(t, s, "ride_ingest"); n != 500 {
		t.Fatalf("ingested %d rides, want 500 (ingest in the spend transaction)", n)
	}
}

// AC6 / FR-6: a replay returns the stored status and body byte for byte and
// spends nothing.
func TestReplaySpendsNothing(t *testing.T) {
	s, clk := openTest(t)
	b := bucket(1)
	first := mustDecide(t, s, keyed(b, "k1", "body"))
	clk.Advance(3 * time.Second)
	for i := 0; i < 3; i++ {
		d := mustDecide(t, s, keyed(b, "k1", "body"))
		if d.Outcome != reference.Replayed || d.Status != first.Status || !bytes.Equal(d.Body, first.Body) {
			t.Fatalf("replay %+v body %s, first %s", d, d.Body, first.Body)
		}
		wantHeaders(t, d, reference.Replayed, 499, first.Reset)
	}
	wantHeaders(t, mustDecide(t, s, keyed(b, "k2", "body")), reference.Allowed, 498, first.Reset)
	if n := rowCount(t, s, "ride_ingest"); n != 2 {
		t.Fatalf("replays ingested: %d rides", n)
	}
}

// AC6: N concurrent identical first requests spend one unit and all get the
// same response.
func TestConcurrentIdenticalRequestsSpendOnce(t *testing.T) {
	s, _ := openTest(t)
	b := bucket(1)
	ds := concurrent(t, s, 64, func(int) reference.Request { return keyed(b, "same", "body") })
	allowed := 0
	for _, d := range ds {
		if d.Outcome == reference.Allowed {
			allowed++
		} else if d.Outcome != reference.Replayed {
			t.Fatalf("outcome %v", d.Outcome)
		}
		if !bytes.Equal(d.Body, ds[0].Body) {
			t.Fatalf("bodies differ: %s vs %s", d.Body, ds[0].Body)
		}
	}
	if allowed != 1 {
		t.Fatalf("%d spends, want 1", allowed)
	}
	rem, _, _, _ := s.BucketState(context.Background(), b)
	if rem != 499 {
		t.Fatalf("remaining %d, want 499", rem)
	}
}

// AC6: the same key with a different body never gets the cached response
// and changes nothing.
func TestKeyReusedWithDifferentBody(t *testing.T) {
	s, _ := openTest(t)
	b := bucket(1)
	mustDecide(t, s, keyed(b, "k", "one"))
	d := mustDecide(t, s, keyed(b, "k", "two"))
	if d.Outcome != reference.KeyReused || d.Status != 422 || d.Body != nil {
		t.Fatalf("reuse: %+v", d)
	}
	wantHeaders(t, d, reference.KeyReused, 499, d.Reset)
	wantHeaders(t, mustDecide(t, s, req(b)), reference.Allowed, 498, d.Reset)
}

// A 429 is not recorded: the same key is processed afresh after the reset.
func TestLimitedResponseIsNotRecorded(t *testing.T) {
	s, clk := openTest(t, withLimit(1), withWindow(10*time.Second))
	b := bucket(1)
	mustDecide(t, s, req(b))
	if d := mustDecide(t, s, keyed(b, "k", "x")); d.Outcome != reference.Limited {
		t.Fatalf("%v", d.Outcome)
	}
	clk.Advance(10 * time.Second)
	if d := mustDecide(t, s, keyed(b, "k", "x")); d.Outcome != reference.Allowed {
		t.Fatalf("after reset: %v", d.Outcome)
	}
	if d := mustDecide(t, s, keyed(b, "k", "x")); d.Outcome != reference.Replayed {
		t.Fatalf("replay: %v", d.Outcome)
	}
}

// Replays show current headers: after the window passed, a full quota and a
// window that would start now.
func TestReplayAfterWindowShowsCurrentState(t *testing.T) {
	s, clk := openTest(t, withWindow(10*time.Second))
	b := bucket(1)
	first := mustDecide(t, s, keyed(b, "k", "x"))
	clk.Advance(15 * time.Second)
	d := mustDecide(t, s, keyed(b, "k", "x"))
	wantHeaders(t, d, reference.Replayed, 500, clk.Now().Unix()+10)
	if !bytes.Equal(d.Body, first.Body) {
		t.Fatal("replay body changed")
	}
}

// AC8 / FR-8: disabled, every request is allowed with the sentinel, nothing
// is spent, rides are ingested and replays still work.
func TestDisabled(t *testing.T) {
	s, clk := openTest(t, withFlagOff(999), withLimit(2))
	b := bucket(1)
	for i := 0; i < 5; i++ {
		wantHeaders(t, mustDecide(t, s, req(b)), reference.Allowed, 999, clk.Now().Unix()+3600)
	}
	if _, _, found, _ := s.BucketState(context.Background(), b); found {
		t.Fatal("disabled limiter wrote a bucket")
	}
	first := mustDecide(t, s, keyed(b, "k", "x"))
	if d := mustDecide(t, s, keyed(b, "k", "x")); d.Outcome != reference.Replayed || !bytes.Equal(d.Body, first.Body) || d.Remaining != 999 {
		t.Fatalf("disabled replay %+v", d)
	}
	if n := rowCount(t, s, "ride_ingest"); n != 6 {
		t.Fatalf("ingested %d", n)
	}
}

// spec/000 retention: Cleanup deletes buckets idle over 24h and expired
// idempotency records; expired records are not replayed even before cleanup.
func TestCleanupRetention(t *testing.T) {
	s, clk := openTest(t, withWindow(time.Hour))
	ctx := context.Background()
	old, active := bucket(1), bucket(2)
	mustDecide(t, s, keyed(old, "old-key", "x"))
	clk.Advance(20 * time.Hour)
	mustDecide(t, s, keyed(active, "new-key", "y"))
	clk.Advance(5*time.Hour + time.Second) // old: window ended 24h+1s ago
	st, err := s.Cleanup(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Buckets != 1 || st.IdempotencyKeys != 1 || st.Rides != 1 {
		t.Fatalf("cleanup %+v, want one of each", st)
	}
	if _, _, found, _ := s.BucketState(ctx, old); found {
		t.Fatal("idle bucket kept")
	}
	if _, _, found, _ := s.BucketState(ctx, active); !found {
		t.Fatal("active bucket deleted")
	}
	// A stale record is ignored before cleanup removes it.
	clk.Advance(20 * time.Hour)
	if d := mustDecide(t, s, keyed(active, "new-key", "other body")); d.Outcome != reference.Allowed {
		t.Fatalf("expired key: %v, want a fresh request", d.Outcome)
	}
}
