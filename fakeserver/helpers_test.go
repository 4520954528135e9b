package fakeserver

import (
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver/servertest"
	"github.com/rlspec/rlspec/reference"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

type tserver struct {
	*Server
	clk *reference.FakeClock
}

func newTest(t testing.TB, mutate func(*Config)) tserver {
	t.Helper()
	clk := reference.NewFakeClock(t0)
	cfg := DefaultConfig()
	cfg.Clock = clk
	cfg.DBPath = filepath.Join(t.TempDir(), "rl.db")
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := New(cfg)
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
