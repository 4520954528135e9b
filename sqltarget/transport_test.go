package sqltarget

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/sqltarget/spec004"
)

func newTransport(t *testing.T, v spec004.Variant, limit int) *Transport {
	t.Helper()
	tr, err := New(context.Background(), Config{DSN: database(t, v), Function: "check_rate_limit", Limit: limit, Window: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tr.Close)
	return tr
}

func call(t *testing.T, tr *Transport, key string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "http://sql.invalid/", nil)
	if key != "" {
		req.Header.Set("X-User-ID", key)
	}
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusServiceUnavailable && !strings.Contains(string(b), "check_rate_limit failed") {
		t.Errorf("503 without the function's error in the body: %s", b)
	}
	return resp.StatusCode
}

// concurrent sends n calls for one key at once and counts statuses.
func concurrent(t *testing.T, tr *Transport, key string, n int) map[int]int {
	t.Helper()
	var (
		mu     sync.Mutex
		counts = map[int]int{}
		wg     sync.WaitGroup
		start  = make(chan struct{})
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			st := call(t, tr, key)
			mu.Lock()
			counts[st]++
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	return counts
}

func TestShippedSequential(t *testing.T) {
	tr := newTransport(t, spec004.Shipped, 10)
	for i := 1; i <= 11; i++ {
		want := http.StatusOK
		if i == 11 {
			want = http.StatusTooManyRequests
		}
		if got := call(t, tr, "user-a"); got != want {
			t.Fatalf("call %d: %d, want %d", i, got, want)
		}
	}
	if got := call(t, tr, "user-b"); got != http.StatusOK {
		t.Errorf("another user: %d, want 200 (keys are independent)", got)
	}
	for i := range 15 {
		if got := call(t, tr, ""); got != http.StatusOK {
			t.Fatalf("anonymous call %d: %d, want 200 (auth.uid() NULL returns TRUE)", i, got)
		}
	}
}

func TestShippedAgeOpensANewWindow(t *testing.T) {
	tr := newTransport(t, spec004.Shipped, 2)
	for range 2 {
		call(t, tr, "k")
	}
	if got := call(t, tr, "k"); got != http.StatusTooManyRequests {
		t.Fatalf("third call: %d, want 429", got)
	}
	if err := tr.Age(context.Background(), "k", time.Minute+time.Second); err != nil {
		t.Fatal(err)
	}
	if got := call(t, tr, "k"); got != http.StatusOK {
		t.Fatalf("after aging past the window: %d, want 200", got)
	}
}

// TestConcurrentFreshKey is FW-4 on the function: the shipped retry loop
// gives exactly N of N+k, the no-retry fault errors (and so is caught).
func TestConcurrentFreshKey(t *testing.T) {
	const limit, n = 10, 40
	shipped := newTransport(t, spec004.Shipped, limit)
	for i := range 5 {
		got := concurrent(t, shipped, "fresh-"+string(rune('a'+i)), n)
		if got[200] != limit || got[429] != n-limit {
			t.Fatalf("shipped, round %d: %v; want exactly %d×200 and %d×429", i, got, limit, n-limit)
		}
	}
	faulty := newTransport(t, spec004.NoRetry, limit)
	caught := 0
	for i := range 5 {
		got := concurrent(t, faulty, "fresh-"+string(rune('a'+i)), n)
		if got[200] != limit || got[503] > 0 {
			caught++
		}
	}
	if caught == 0 {
		t.Fatal("no-retry: 5 rounds of 40 concurrent first calls all looked correct")
	}
}

// TestBoundaryRace is FW-3 on the function: after the window passes, callers
// racing at the boundary get at most N; the reset-race fault lets more in.
func TestBoundaryRace(t *testing.T) {
	const limit, n = 5, 30
	run := func(v spec004.Variant) (worst int) {
		tr := newTransport(t, v, limit)
		for i := range 5 {
			key := "boundary-" + string(rune('a'+i))
			for range limit {
				call(t, tr, key)
			}
			if err := tr.Age(context.Background(), key, time.Minute+time.Second); err != nil {
				t.Fatal(err)
			}
			worst = max(worst, concurrent(t, tr, key, n)[200])
		}
		return worst
	}
	if got := run(spec004.Shipped); got != limit {
		t.Fatalf("shipped: at most %d allowed in the new window; the worst round allowed %d", limit, got)
	}
	if got := run(spec004.ResetRace); got <= limit {
		t.Fatalf("reset-race: no round allowed more than %d (worst %d): the fault was not visible", limit, got)
	}
}
