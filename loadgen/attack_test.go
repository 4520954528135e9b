package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/service"
)

func fixedRequests(n int) func() ([][]byte, error) {
	return func() ([][]byte, error) {
		out := make([][]byte, n)
		for i := range out {
			out[i] = []byte(fmt.Sprintf("req-%d", i))
		}
		return out, nil
	}
}

// runAttack builds an attacker of d and render with opts and runs it to
// its end; the test fails on an error of either.
func runAttack(t testing.TB, d Dialer, render func() ([][]byte, error), opts ...Option) *Result {
	t.Helper()
	a, err := NewAttacker(d, render, opts...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.Attack(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// An open-loop attack sends exactly rate*duration measured requests, spread
// over the request pool, and counts statuses by outcome; warm-up requests
// are excluded.
func TestAttackOpenLoopCountsWithFakeDialer(t *testing.T) {
	d := &fakeDialer{script: map[string]int{"req-0": 429, "req-1": 503, "req-2": -1}}
	res := runAttack(t, d, fixedRequests(10),
		WithRate(2000), WithDuration(200*time.Millisecond), WithWarmup(100*time.Millisecond), WithConnections(4))
	s := StatusCountsOf(res.Totals.Status)
	// Measured requests are n = 200 … 599: each of the 10 requests 40 times.
	want := StatusCounts{OK: 280, RateLimited: 40, Other: 40, TransportErrors: 40}
	if s.OK != want.OK || s.RateLimited != want.RateLimited || s.Other != want.Other || s.TransportErrors != want.TransportErrors {
		t.Fatalf("status counts %+v, want %+v", s, want)
	}
	if s.Codes["503"] != 40 || s.Codes["error"] != 40 {
		t.Errorf("codes %v", s.Codes)
	}
	if got := res.Totals.Requests(); got != 400 {
		t.Errorf("requests = %d, want 400", got)
	}
	if got := res.Totals.Lag.TotalCount(); got != 400 {
		t.Errorf("scheduler lag samples = %d, want 400", got)
	}
	if len(res.ErrorSample) == 0 || !strings.Contains(res.ErrorSample[0], "reset") {
		t.Errorf("error sample %q", res.ErrorSample)
	}
	// Each transport error closes its connection and the worker redials.
	if d.dials < 4+40 {
		t.Errorf("dials = %d, want at least 44", d.dials)
	}
}

// On a clock that jumps to each send, an open-loop run of 5 requests over
// one connection that fails one of them counts exactly that one as a
// transport error, closes that connection (a closed fake connection fails
// every request) and redials once, and counts the other four as 200s.
func TestAttackCountsATransportErrorAndRedials(t *testing.T) {
	d := &fakeDialer{script: map[string]int{"req-0": -1}}
	res := runAttack(t, d, fixedRequests(5), WithClock(&fakeClock{now: time.Unix(1_700_000_000, 0)}),
		WithRate(1000), WithDuration(5*time.Millisecond), WithWarmup(0), WithConnections(1))
	s := StatusCountsOf(res.Totals.Status)
	if s.TransportErrors != 1 || s.OK != 4 || s.Codes["error"] != 1 {
		t.Fatalf("status counts %+v, want 1 transport error and 4 OK", s)
	}
	if len(res.ErrorSample) == 0 {
		t.Error("no error sample for the transport error")
	}
	if d.dials != 2 {
		t.Errorf("dials = %d, want 2: the first connection and one after the error", d.dials)
	}
}

func TestAttackClosedLoop(t *testing.T) {
	d := &fakeDialer{}
	res := runAttack(t, d, fixedRequests(3), WithRate(0), WithConnections(2), WithDuration(50*time.Millisecond), WithWarmup(0))
	if n := res.Totals.Requests(); n == 0 || StatusCountsOf(res.Totals.Status).OK != n {
		t.Errorf("closed loop recorded %d requests, status %+v", n, StatusCountsOf(res.Totals.Status))
	}
	if res.Totals.Lag.TotalCount() != 0 {
		t.Error("closed loop has no schedule, but lag was recorded")
	}
	if res.Meta.Mode != "closed" {
		t.Errorf("mode %q", res.Meta.Mode)
	}
}

func TestNewAttackerRejects(t *testing.T) {
	d := &fakeDialer{}
	for name, opts := range map[string][]Option{
		"closed loop without connections": {WithRate(0)},
		"negative rate":                   {WithRate(-1)},
		"zero duration":                   {WithDuration(0)},
		"negative warm-up":                {WithWarmup(-time.Second)},
		"negative connections":            {WithConnections(-1)},
	} {
		if _, err := NewAttacker(d, fixedRequests(1), opts...); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// The scheduler keeps the absolute timeline however late it wakes, and
// reports its lateness separately.
func TestScheduleTimelineAndLag(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	clk := &fakeClock{now: t0, late: 2 * time.Millisecond}
	a := &Attacker{clock: clk, pacer: ConstantPacer{Rate: 1000}}
	jobs := make(chan job, 100)
	lag := newRecorder()
	a.schedule(context.Background(), t0, t0.Add(10*time.Millisecond), t0.Add(50*time.Millisecond), lag, jobs)
	close(jobs)
	n := 0
	for j := range jobs {
		if want := t0.Add(time.Duration(n) * time.Millisecond); !j.at.Equal(want) || j.n != uint64(n) {
			t.Fatalf("job %d at %v, want n=%d at %v", j.n, j.at, n, want)
		}
		n++
	}
	if n != 50 {
		t.Fatalf("%d jobs, want 50", n)
	}
	if got := lag.h.Lag.TotalCount(); got != 40 {
		t.Errorf("lag samples %d, want 40 (warm-up excluded)", got)
	}
	// Every wake-up is 2 ms late, except those already overdue when the
	// clock jumped past them (0 ms late): lag never exceeds 2 ms.
	if mx := PercentilesOf(lag.h.Lag).Max; mx < 1.99 || mx > 2.01 {
		t.Errorf("max lag %v ms, want 2", mx)
	}
}

func TestRequestsRender(t *testing.T) {
	cfg := service.DefaultConfig()
	cfg.Headers = http.Header{"Authorization": {"Bearer abc"}, "X-Trace": {"1"}}
	r, err := NewRequests(cfg, "http://127.0.0.1:9/", 5)
	if err != nil {
		t.Fatal(err)
	}
	wire, err := r.Render()
	if err != nil {
		t.Fatal(err)
	}
	if len(wire) != 5 {
		t.Fatalf("%d requests, want 5", len(wire))
	}
	seen := map[string]bool{}
	for _, w := range wire {
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(w)))
		if err != nil {
			t.Fatalf("not a valid HTTP request: %v\n%s", err, w)
		}
		if req.Method != "POST" || req.URL.Path != service.DefaultPath || req.Host != "127.0.0.1:9" {
			t.Errorf("request line %s %s host %s", req.Method, req.URL, req.Host)
		}
		if req.Header.Get("Authorization") != "Bearer abc" || req.Header.Get("X-Trace") != "1" || req.Header.Get("Content-Type") != "application/json" {
			t.Errorf("headers %v", req.Header)
		}
		body, _ := io.ReadAll(req.Body)
		var obj map[string]any
		if err := json.Unmarshal(body, &obj); err != nil {
			t.Fatalf("body %s: %v", body, err)
		}
		b, _ := obj["device_bucket"].(string)
		if len(b) != 64 {
			t.Errorf("device_bucket %q", b)
		}
		seen[b] = true
	}
	if len(seen) != 5 {
		t.Errorf("%d distinct buckets, want 5", len(seen))
	}
	if _, err := NewRequests(cfg, "http://127.0.0.1:9", 0); err == nil {
		t.Error("BUCKETS=0 accepted")
	}
}

func TestReadResponse(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		status    int
		close     bool
		wantErr   bool
		remaining string
	}{
		{"content-length", "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}NEXT", 200, false, false, "NEXT"},
		{"chunked", "HTTP/1.1 429 Too Many Requests\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\nNEXT", 429, false, false, "NEXT"},
		{"connection close", "HTTP/1.1 503 Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", 503, true, false, ""},
		{"interim then final", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\nNEXT", 200, false, false, "NEXT"},
		{"http/1.0 body to close", "HTTP/1.0 200 OK\r\n\r\nbody", 200, true, false, ""},
		{"204 has no body", "HTTP/1.1 204 No Content\r\n\r\nNEXT", 204, false, false, "NEXT"},
		{"garbage", "SSH-2.0-OpenSSH\r\n", 0, true, true, ""},
		{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n", 200, true, true, ""},
		{"truncated body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab", 200, true, true, ""},
		{"empty", "", 0, true, true, ""},
		// Headers other than the framing ones are skipped, those starting
		// with c or t included; lower and mixed case framing headers count.
		{"other headers skipped", "HTTP/1.1 200 OK\r\nX-RateLimit-Limit: 500\r\nCache-Control: no-store\r\nTrailer: x\r\nContent-Type: a\r\ncontent-LENGTH: 3\r\n\r\nabcNEXT", 200, false, false, "NEXT"},
		{"connection close lower case", "HTTP/1.1 200 OK\r\nconnection: Close\r\ncontent-length: 0\r\n\r\n", 200, true, false, ""},
		{"keep-alive reopens http/1.0", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nxNEXT", 200, false, false, "NEXT"},
		{"header without a name", "HTTP/1.1 200 OK\r\n: x\r\nContent-Length: 0\r\n\r\n", 200, true, true, ""},
		{"header without a colon", "HTTP/1.1 200 OK\r\nX-Broken\r\nContent-Length: 0\r\n\r\n", 200, true, true, ""},
	}
	for _, tt := range tests {
		r := bufio.NewReader(strings.NewReader(tt.in))
		st, cl, err := readResponse(r, false)
		if (err != nil) != tt.wantErr || st != tt.status || (!tt.wantErr && cl != tt.close) {
			t.Errorf("%s: status %d close %v err %v; want %d %v err %v", tt.name, st, cl, err, tt.status, tt.close, tt.wantErr)
			continue
		}
		if rest, _ := io.ReadAll(r); !tt.wantErr && string(rest) != tt.remaining {
			t.Errorf("%s: left %q, want %q", tt.name, rest, tt.remaining)
		}
	}
}
