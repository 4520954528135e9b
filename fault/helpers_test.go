package fault_test

import (
	"context"
	"database/sql"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fakeserver/servertest"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/reference"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// tserver is a server with fault n on a fresh file and a fake clock.
type tserver struct {
	*fakeserver.Server
	clk *reference.FakeClock
}

// newTest applies mutate to the defaults, then the fault (which sees the
// final configuration).
func newTest(t testing.TB, n fault.Name, mutate func(*fakeserver.Config)) tserver {
	t.Helper()
	clk := reference.NewFakeClock(t0)
	s, err := fakeserver.New(faulttest.Config(t, n, func(c *fakeserver.Config) {
		c.Clock, c.DBPath = clk, filepath.Join(t.TempDir(), "rl.db")
		if mutate != nil {
			mutate(c)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return tserver{s, clk}
}

type call = servertest.Call

func devBucket(i int) string                           { return servertest.DevBucket(i) }
func rideBody(b any) string                            { return servertest.RideBody(b) }
func hdr(w *httptest.ResponseRecorder, n string) int64 { return servertest.Header(w, n) }
func remaining(w *httptest.ResponseRecorder) int64     { return servertest.Remaining(w) }
func reset(w *httptest.ResponseRecorder) int64         { return servertest.Reset(w) }

func (s tserver) do(c call) *httptest.ResponseRecorder { return servertest.Do(s, c) }

func (s tserver) post(bucket any) *httptest.ResponseRecorder {
	return s.do(call{Body: rideBody(bucket)})
}

func (s tserver) parallel(n int, c call) []*httptest.ResponseRecorder {
	return servertest.Parallel(s, n, c)
}

// holdWriteLock takes SQLite's write lock on path from a connection of its
// own (BEGIN IMMEDIATE) until release.
func holdWriteLock(t testing.TB, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=rw")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err == nil {
		_, err = conn.ExecContext(context.Background(), "BEGIN IMMEDIATE")
	}
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	return func() {
		_, _ = conn.ExecContext(context.Background(), "ROLLBACK")
		_ = conn.Close()
		_ = db.Close()
	}
}

// onOneFile configures servers of profile p on one fresh database file with
// a quota of n per window (token-bucket: a bucket of n that refills slowly):
// a restart or a second replica is one more mk with it.
func onOneFile(t testing.TB, p profile.Name, n int, window time.Duration) func(*fakeserver.Config) {
	path := filepath.Join(t.TempDir(), "rl.db")
	return func(c *fakeserver.Config) {
		c.DBPath, c.Profile, c.Limit, c.Window = path, p, n, window
		c.Burst, c.Rate = n, 0.01
	}
}
