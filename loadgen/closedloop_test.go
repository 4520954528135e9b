package loadgen

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
	"time"
)

// rawServer accepts connections on loopback and runs serve on each.
func rawServer(t *testing.T, serve func(c net.Conn)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				serve(c)
			}()
		}
	}()
	return "http://" + ln.Addr().String()
}

// closedAttack runs a closed-loop attack of n requests on conns connections
// against base.
func closedAttack(t *testing.T, ctx context.Context, base string, conns int, n uint64, timeout time.Duration, reqs ...[]byte) (*Result, error) {
	t.Helper()
	d, err := NewHTTPDialer(base, timeout)
	if err != nil {
		t.Fatal(err)
	}
	if len(reqs) == 0 {
		reqs = [][]byte{[]byte("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")}
	}
	a, err := NewAttacker(d, func() ([][]byte, error) { return reqs, nil },
		WithRate(0), WithConnections(conns), WithRequests(n), WithDuration(time.Hour), WithWarmup(0),
		WithBodyRefresh(0), WithTimeout(timeout))
	if err != nil {
		t.Fatal(err)
	}
	return a.Attack(ctx)
}

// Large, split, chunked and interim responses, and Connection: close every
// seventh response: every request answered, each status counted.
func TestClosedLoopParsesEveryFraming(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	base := rawServer(t, func(c net.Conn) {
		r := bufio.NewReader(c)
		for i := 0; ; i++ {
			req, err := http.ReadRequest(r)
			if err != nil {
				return
			}
			if _, err := io.Copy(io.Discard, req.Body); err != nil {
				return
			}
			var parts []string
			switch i % 7 {
			case 0: // in three writes
				parts = []string{"HTTP/1.1 200 OK\r\nContent-", "Length: 5\r\n\r\nhe", "llo"}
			case 1: // larger than the 16 KiB read buffer
				parts = []string{fmt.Sprintf("HTTP/1.1 429 Too Many Requests\r\nContent-Length: %d\r\n\r\n%s", len(big), big)}
			case 2:
				parts = []string{fmt.Sprintf("HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n3;ext=1\r\nabc\r\n0\r\nX-T: 1\r\n\r\n", len(big), big)}
			case 3:
				parts = []string{"HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 204 No Content\r\n\r\n"}
			case 4:
				parts = []string{"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"}
			case 5:
				parts = []string{"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 2\r\n\r\nno"}
			case 6:
				parts = []string{"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"}
			}
			for _, p := range parts {
				if _, err := io.WriteString(c, p); err != nil {
					return
				}
			}
			if i%7 == 6 {
				return
			}
		}
	})
	huge := []byte(fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", 4<<20, strings.Repeat("y", 4<<20)))
	small := []byte("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
	const n = 7 * 20
	// One connection: the server's i%7 sequence lines up with the requests.
	res, err := closedAttack(t, context.Background(), base, 1, n, 10*time.Second,
		huge, small, small, small, small)
	if err != nil {
		t.Fatal(err)
	}
	s := StatusCountsOf(res.Totals.Status)
	want := map[string]int64{"200": 3 * n / 7, "429": n / 7, "201": n / 7, "204": n / 7, "503": n / 7}
	for code, w := range want {
		if s.Codes[code] != w {
			t.Errorf("status %s: %d, want %d (all: %v, errors %v)", code, s.Codes[code], w, s.Codes, res.ErrorSample)
		}
	}
	if s.TransportErrors != 0 || res.Totals.Requests() != n {
		t.Errorf("requests %d, transport errors %d (%v), want %d and 0", res.Totals.Requests(), s.TransportErrors, res.ErrorSample, n)
	}
}

// A server that closes the connection after each response without saying
// so: the next request on that connection fails (counted as a transport
// error) and the one after runs on a new connection.
func TestClosedLoopCountsServerCloseAsTransportError(t *testing.T) {
	base := rawServer(t, func(c net.Conn) {
		r := bufio.NewReader(c)
		if _, err := http.ReadRequest(r); err != nil {
			return
		}
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	})
	const n = 40
	res, err := closedAttack(t, context.Background(), base, 1, n, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	s := StatusCountsOf(res.Totals.Status)
	if s.OK != n/2 || s.TransportErrors != n/2 {
		t.Fatalf("200: %d, transport errors %d, want %d each (%v)", s.OK, s.TransportErrors, n/2, res.ErrorSample)
	}
	if len(res.ErrorSample) == 0 {
		t.Fatal("no error sample")
	}
}

// A server that never answers: each request fails at the timeout, is
// counted as a transport error with its latency, and the next goes on a new
// connection.
func TestClosedLoopTimesOutOnSilentTarget(t *testing.T) {
	var mu sync.Mutex
	accepted := 0
	base := rawServer(t, func(c net.Conn) {
		mu.Lock()
		accepted++
		mu.Unlock()
		_, _ = io.Copy(io.Discard, c) // reads, never answers, until the client closes
	})
	const timeout = 100 * time.Millisecond
	res, err := closedAttack(t, context.Background(), base, 2, 6, timeout)
	if err != nil {
		t.Fatal(err)
	}
	s := StatusCountsOf(res.Totals.Status)
	if s.TransportErrors != 6 || res.Totals.Requests() != 6 {
		t.Fatalf("transport errors %d of %d, want 6 of 6", s.TransportErrors, res.Totals.Requests())
	}
	// The deadline has slack of timeout/5.
	if lo := PercentilesOf(res.Totals.Corrected).P50; lo < 0.8*float64(timeout.Milliseconds()) {
		t.Fatalf("median latency of a timed-out request %.3f ms, want about %s", lo, timeout)
	}
	mu.Lock()
	defer mu.Unlock()
	if accepted < 6 { // the first dial check, then one connection per request
		t.Fatalf("%d connections accepted, want a new one per timed-out request", accepted)
	}
}

// readResponse reads each framing to its end however the bytes arrive
// (here one at a time), says whether the server closes, and leaves the
// bytes after the response unread (a body until close has none).
func TestReadResponseOneByteAtATime(t *testing.T) {
	const next = "HTTP/1.1 ..." // the start of the next response
	cases := []struct {
		raw        string
		status     int
		closeAfter bool
		rest       string
	}{
		{"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc", 200, false, next},
		{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 429 X\r\nContent-Length: 0\r\n\r\n", 429, false, next},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\n\r\n", 200, false, next},
		{"HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", 200, true, next},
		{"HTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n", 304, true, next},
		{"HTTP/1.1 200 OK\r\n\r\nbody until close", 200, true, ""},
	}
	for _, tc := range cases {
		r := bufio.NewReader(iotest.OneByteReader(strings.NewReader(tc.raw + next)))
		status, closeAfter, err := readResponse(r, false)
		if err != nil || status != tc.status || closeAfter != tc.closeAfter {
			t.Fatalf("%q: status %d close %v err %v", tc.raw, status, closeAfter, err)
		}
		if rest, _ := io.ReadAll(r); string(rest) != tc.rest {
			t.Fatalf("%q: %q left after the response, want %q", tc.raw, rest, tc.rest)
		}
	}
	if _, _, err := readResponse(bufio.NewReader(strings.NewReader("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nab")), false); err == nil {
		t.Fatal("a short body read as complete")
	}
	if _, _, err := readResponse(bufio.NewReader(strings.NewReader("SPDY/3 200\r\n")), false); err == nil {
		t.Fatal("malformed status line accepted")
	}
}
