package fakeserver

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

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

func devBucket(i int) string { return fmt.Sprintf("%064x", i+1) }

func rideBody(bucket any) string {
	switch b := bucket.(type) {
	case nil:
		return `{"route_id":"335E","direction_id":0}`
	case string:
		return `{"route_id":"335E","device_bucket":"` + b + `"}`
	default:
		return fmt.Sprintf(`{"route_id":"335E","device_bucket":%v}`, b)
	}
}

type call struct {
	remote string // "" = 192.0.2.1:1234
	body   string
	key    string
	header http.Header
}

func (s tserver) do(c call) *httptest.ResponseRecorder {
	r := httptest.NewRequest(http.MethodPost, PathRideSummary, strings.NewReader(c.body))
	r.Header.Set("Content-Type", "application/json")
	for k, vs := range c.header {
		r.Header[k] = vs
	}
	if c.key != "" {
		r.Header.Set("Idempotency-Key", c.key)
	}
	r.RemoteAddr = c.remote
	if r.RemoteAddr == "" {
		r.RemoteAddr = "192.0.2.1:1234"
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

func (s tserver) post(bucket any) *httptest.ResponseRecorder {
	return s.do(call{body: rideBody(bucket)})
}

func (s tserver) parallel(n int, c call) []*httptest.ResponseRecorder {
	out := make([]*httptest.ResponseRecorder, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range out {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			out[i] = s.do(c)
		}(i)
	}
	close(start)
	wg.Wait()
	return out
}

// hdr reads an integer header; -1 when absent.
func hdr(w *httptest.ResponseRecorder, name string) int64 {
	v := w.Header().Get(name)
	if v == "" {
		return -1
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return -2
	}
	return n
}

func remaining(w *httptest.ResponseRecorder) int64 { return hdr(w, "X-RateLimit-Remaining") }
func reset(w *httptest.ResponseRecorder) int64     { return hdr(w, "X-RateLimit-Reset") }
