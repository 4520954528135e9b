package loadgen

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The connection's fast path (Linux) must survive what the poller wait
// after the write makes delicate: requests larger than the socket's send
// buffer (the write blocks half-way), responses larger than the read buffer
// (the socket is not drained by one read), responses that arrive in pieces,
// and many round trips on one connection.
func TestHTTPConnLargeAndSplitMessages(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	big := strings.Repeat("x", 100<<10)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		r := bufio.NewReader(c)
		for i := 0; ; i++ {
			req, err := http.ReadRequest(r)
			if err != nil {
				return
			}
			n, _ := io.Copy(io.Discard, req.Body)
			switch i % 3 {
			case 0: // the body length echoed, in three separate writes
				body := fmt.Sprint(n)
				for _, part := range []string{"HTTP/1.1 200 OK\r\nContent-", fmt.Sprintf("Length: %d\r\n\r\n", len(body)), body} {
					if _, err := io.WriteString(c, part); err != nil {
						return
					}
				}
			case 1: // larger than the client's 16 KiB read buffer
				fmt.Fprintf(c, "HTTP/1.1 429 Too Many Requests\r\nContent-Length: %d\r\n\r\n%s", len(big), big)
			case 2:
				fmt.Fprintf(c, "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(big), big)
			}
		}
	}()
	conn := dialRaw(t, ln, 10*time.Second)
	small := []byte("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
	huge := []byte(fmt.Sprintf("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\n\r\n%s", 8<<20, strings.Repeat("y", 8<<20)))
	want := []int{200, 429, 201}
	for i := range 30 {
		req := small
		if i%5 == 0 {
			req = huge // 8 MiB: more than loopback's send buffer
		}
		st, err := conn.RoundTrip(req)
		if err != nil {
			t.Fatalf("round trip %d: %v", i, err)
		}
		if st != want[i%3] {
			t.Fatalf("round trip %d: status %d, want %d", i, st, want[i%3])
		}
	}
}

// A target that never answers makes the round trip fail at the timeout, not
// hang.
func TestHTTPConnTimesOutOnSilentTarget(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- c
		}
	}()
	conn := dialRaw(t, ln, 200*time.Millisecond)
	defer func() {
		select {
		case c := <-accepted:
			c.Close()
		default:
		}
	}()
	if _, err := conn.RoundTrip([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n")); err == nil {
		t.Fatal("round trip to a silent target succeeded")
	}
}

// dialRaw is one raw connection to the listener ln, closed when t ends.
func dialRaw(t *testing.T, ln net.Listener, timeout time.Duration) Conn {
	t.Helper()
	d, err := NewHTTPDialer("http://"+ln.Addr().String(), timeout)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := d.Dial(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}
