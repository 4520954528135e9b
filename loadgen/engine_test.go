package loadgen

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// engines are the closed-loop engines this platform runs.
func engines() []string {
	if epollAvailable {
		return []string{EngineGoroutines, EngineEpoll}
	}
	return []string{EngineGoroutines}
}

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
// with engine against base.
func closedAttack(t *testing.T, ctx context.Context, engine, base string, conns int, n uint64, timeout time.Duration, reqs ...[]byte) (*Result, error) {
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
		WithBodyRefresh(0), WithTimeout(timeout), WithEngine(engine))
	if err != nil {
		t.Fatal(err)
	}
	if a.meta.Engine != engine {
		t.Fatalf("engine %q, want %q", a.meta.Engine, engine)
	}
	return a.Attack(ctx)
}

// Large, split, chunked and interim responses, and Connection: close every
// seventh response: every request answered, each status counted, on both
// engines alike.
func TestEnginesParseEveryFraming(t *testing.T) {
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
	for _, engine := range engines() {
		t.Run(engine, func(t *testing.T) {
			// One connection: the server's i%7 sequence lines up with the requests.
			res, err := closedAttack(t, context.Background(), engine, base, 1, n, 10*time.Second,
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
		})
	}
}

// A server that closes the connection after each response without saying
// so: the next request on that connection fails (counted as a transport
// error) and the one after runs on a new connection — the same count on
// both engines.
func TestEnginesCountServerCloseAsTransportError(t *testing.T) {
	base := rawServer(t, func(c net.Conn) {
		r := bufio.NewReader(c)
		if _, err := http.ReadRequest(r); err != nil {
			return
		}
		_, _ = io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
	})
	const n = 40
	for _, engine := range engines() {
		t.Run(engine, func(t *testing.T) {
			res, err := closedAttack(t, context.Background(), engine, base, 1, n, 10*time.Second)
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
		})
	}
}

// A server that never answers: each request fails at the timeout, is
// counted as a transport error with its latency, and the next goes on a new
// connection.
func TestEnginesTimeOutOnSilentTarget(t *testing.T) {
	var mu sync.Mutex
	accepted := 0
	base := rawServer(t, func(c net.Conn) {
		mu.Lock()
		accepted++
		mu.Unlock()
		_, _ = io.Copy(io.Discard, c) // reads, never answers, until the client closes
	})
	const timeout = 100 * time.Millisecond
	for _, engine := range engines() {
		t.Run(engine, func(t *testing.T) {
			mu.Lock()
			accepted = 0
			mu.Unlock()
			res, err := closedAttack(t, context.Background(), engine, base, 2, 6, timeout)
			if err != nil {
				t.Fatal(err)
			}
			s := StatusCountsOf(res.Totals.Status)
			if s.TransportErrors != 6 || res.Totals.Requests() != 6 {
				t.Fatalf("transport errors %d of %d, want 6 of 6", s.TransportErrors, res.Totals.Requests())
			}
			// The goroutine engine's deadline has slack of timeout/5.
			if lo := PercentilesOf(res.Totals.Corrected).P50; lo < 0.8*float64(timeout.Milliseconds()) {
				t.Fatalf("median latency of a timed-out request %.3f ms, want about %s", lo, timeout)
			}
			mu.Lock()
			defer mu.Unlock()
			if accepted < 6 { // the first dial check, then one connection per request
				t.Fatalf("%d connections accepted, want a new one per timed-out request", accepted)
			}
		})
	}
}

// Cancelling the context ends an epoll attack stuck on a silent target
// well before the request timeout, marked interrupted. (The goroutine
// engine waits for each round trip to end, at the latest at its timeout.)
func TestEpollEngineCancel(t *testing.T) {
	if !epollAvailable {
		t.Skip("no epoll engine on this platform")
	}
	reading := make(chan struct{}, 1)
	base := rawServer(t, func(c net.Conn) {
		buf := make([]byte, 1024)
		for {
			if _, err := c.Read(buf); err != nil {
				return
			}
			select {
			case reading <- struct{}{}:
			default:
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type out struct {
		res *Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		res, err := closedAttack(t, ctx, EngineEpoll, base, 4, 0, time.Hour)
		done <- out{res, err}
	}()
	<-reading // a request reached the server
	cancel()
	select {
	case o := <-done:
		if o.err != nil {
			t.Fatal(o.err)
		}
		if !o.res.Interrupted {
			t.Fatal("attack not marked interrupted")
		}
	case <-time.After(20 * time.Second):
		t.Fatal("attack did not end after cancel")
	}
}

func TestWithEngineRejects(t *testing.T) {
	d, err := NewHTTPDialer("https://127.0.0.1:1", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	render := func() ([][]byte, error) { return [][]byte{[]byte("x")}, nil }
	for _, opts := range [][]Option{
		{WithEngine("fast")},
		{WithRate(0), WithConnections(1), WithEngine(EngineEpoll)}, // TLS
	} {
		if _, err := NewAttacker(d, render, opts...); err == nil {
			t.Errorf("options %d accepted", len(opts))
		}
	}
	plain, err := NewHTTPDialer("http://127.0.0.1:1", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewAttacker(plain, render, WithRate(100), WithEngine(EngineEpoll)); err == nil {
		t.Error("epoll accepted for open loop")
	}
	a, err := NewAttacker(plain, render, WithRate(100))
	if err != nil {
		t.Fatal(err)
	}
	if a.meta.Engine != EngineGoroutines {
		t.Errorf("open loop engine %q, want %s", a.meta.Engine, EngineGoroutines)
	}
}

// respParser must agree with readResponse whatever the bytes' split.
func TestRespParserSplits(t *testing.T) {
	cases := []struct {
		raw        string
		status     int
		closeAfter bool
	}{
		{"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc", 200, false},
		{"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 429 X\r\nContent-Length: 0\r\n\r\n", 429, false},
		{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\n\r\n", 200, false},
		{"HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx", 200, true},
		{"HTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n", 304, true},
	}
	for _, tc := range cases {
		for split := 1; split <= len(tc.raw); split++ {
			var p respParser
			buf := []byte{}
			done := false
			for off := 0; off < len(tc.raw) && !done; off += split {
				buf = append(buf, tc.raw[off:min(off+split, len(tc.raw))]...)
				n, d, err := p.feed(buf)
				if err != nil {
					t.Fatalf("%q split %d: %v", tc.raw, split, err)
				}
				buf = buf[n:]
				done = d
			}
			if !done || len(buf) != 0 || p.head.status != tc.status || p.head.closeAfter != tc.closeAfter {
				t.Fatalf("%q split %d: done %v rest %q status %d close %v", tc.raw, split, done, buf, p.head.status, p.head.closeAfter)
			}
		}
	}
	var p respParser
	if _, err := p.eof(); !errors.Is(err, errConnBroken) {
		t.Fatalf("eof before any byte: %v", err)
	}
	if _, _, err := p.feed([]byte("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nab")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.eof(); !errors.Is(err, errShortResponse) {
		t.Fatalf("eof in the body: %v", err)
	}
	p.reset()
	if _, _, err := p.feed([]byte("HTTP/1.1 200 OK\r\n\r\nbody")); err != nil {
		t.Fatal(err)
	}
	if done, err := p.eof(); !done || err != nil || !p.head.closeAfter {
		t.Fatalf("body until close: done %v err %v", done, err)
	}
	p.reset()
	if _, _, err := p.feed([]byte("SPDY/3 200\r\n")); err == nil {
		t.Fatal("malformed status line accepted")
	}
}
