package fakeserver_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fakeserver/servertest"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/reference"
	"github.com/rlspec/rlspec/reference/storetest"
)

// TestPostgresReplicas runs the reference on STORE=postgres: two replicas
// on one database share each bucket's quota exactly (MI-1), a replay
// answered by the other replica spends nothing, a window resets on the
// fake clock; and the process-cache fault, harmless on one replica,
// oversells across two.
func TestPostgresReplicas(t *testing.T) {
	c := storetest.Postgres(t, pgcluster.WithSetting("max_connections", "200"))
	dbs := 0
	replicas := func(t *testing.T, n int, f fault.Name) ([]http.Handler, *reference.FakeClock) {
		t.Helper()
		dbs++
		dsn := createDB(t, c, fmt.Sprintf("replicas_%d", dbs))
		clk := reference.NewFakeClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
		var hs []http.Handler
		for range n {
			s, err := fakeserver.New(faulttest.Config(t, f, func(c *fakeserver.Config) {
				c.Store, c.DatabaseURL, c.Limit, c.Window, c.Clock = fakeserver.StorePostgres, dsn, 10, 10*time.Second, clk
			}))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = s.Close() })
			hs = append(hs, s)
		}
		return hs, clk
	}
	// spread sends n requests for one bucket at once, round-robin over hs.
	spread := func(hs []http.Handler, n int, body string) (ok int, remaining map[int64]int) {
		remaining = map[int64]int{}
		res := make(chan *httptest.ResponseRecorder, n)
		start := make(chan struct{})
		for i := range n {
			go func() {
				<-start
				res <- servertest.Do(hs[i%len(hs)], servertest.Call{Body: body})
			}()
		}
		close(start)
		for range n {
			w := <-res
			if w.Code == http.StatusOK {
				ok++
				remaining[servertest.Remaining(w)]++
			}
		}
		return ok, remaining
	}

	t.Run("reference", func(t *testing.T) {
		hs, clk := replicas(t, 2, fault.None)
		body := servertest.RideBody(servertest.DevBucket(1))
		ok, rem := spread(hs, 30, body)
		if ok != 10 || len(rem) != 10 {
			t.Fatalf("30 requests over 2 replicas, limit 10: %d allowed with %d distinct Remaining values; want 10 and 10", ok, len(rem))
		}
		clk.Advance(10 * time.Second)
		w := servertest.Do(hs[1], servertest.Call{Body: body})
		if w.Code != http.StatusOK || servertest.Remaining(w) != 9 {
			t.Fatalf("after the window: %d Remaining %d; want 200 and 9", w.Code, servertest.Remaining(w))
		}
		replay := servertest.Call{Body: servertest.RideBody(servertest.DevBucket(2)), Key: "idem-1"}
		first := servertest.Do(hs[0], replay)
		again := servertest.Do(hs[1], replay)
		next := servertest.Do(hs[0], servertest.Call{Body: replay.Body})
		if first.Code != 200 || again.Code != 200 || again.Body.String() != first.Body.String() || servertest.Remaining(next) != 8 {
			t.Fatalf("replay on the other replica: %d %d same body %t, next Remaining %d (want 8)",
				first.Code, again.Code, again.Body.String() == first.Body.String(), servertest.Remaining(next))
		}
	})
	t.Run("process-cache", func(t *testing.T) {
		one, _ := replicas(t, 1, fault.ProcessCache)
		if ok, _ := spread(one, 30, servertest.RideBody(servertest.DevBucket(3))); ok != 10 {
			t.Fatalf("one replica with the cache: %d allowed, want 10 (the fault is invisible there)", ok)
		}
		two, _ := replicas(t, 2, fault.ProcessCache)
		body := servertest.RideBody(servertest.DevBucket(4))
		// One request on each replica in turn fills both caches (9 left,
		// then 8): from then on neither sees the other's spends, however
		// the concurrent requests interleave. Without this a loaded machine
		// could let one replica spend all 10 before the other first read
		// the store, and the oversell would not show.
		total := 0
		for _, h := range two {
			if w := servertest.Do(h, servertest.Call{Body: body}); w.Code == http.StatusOK {
				total++
			}
		}
		ok, _ := spread(two, 30, body)
		total += ok
		if total <= 10 {
			t.Fatalf("two replicas with per-process caches allowed %d in one window, want more than the limit 10", total)
		}
	})
}

func createDB(t *testing.T, c *pgcluster.Cluster, name string) string {
	t.Helper()
	dsn, err := c.CreateDatabase(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return dsn
}
