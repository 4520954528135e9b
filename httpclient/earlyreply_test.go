package httpclient

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"testing"
	"time"
)

// rawServer serves each connection with handle, which reads the request
// itself; it returns the base URL.
func rawServer(t *testing.T, handle func(c net.Conn, req *http.Request)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				if req, err := http.ReadRequest(bufio.NewReader(c)); err == nil {
					handle(c, req)
				}
			}(c)
		}
	}()
	return "http://" + ln.Addr().String()
}

// TestClientReadsReplyToCutShortUpload: the server reads 1 MiB of a 2 MiB
// body, answers 413 and closes without reading the rest, as a server with a
// body limit does. The unread body makes the kernel reset the connection,
// so the client's upload fails midway; the answer must still be read.
func TestClientReadsReplyToCutShortUpload(t *testing.T) {
	base := rawServer(t, func(c net.Conn, req *http.Request) {
		_, _ = io.CopyN(io.Discard, req.Body, 1<<20)
		_, _ = c.Write([]byte("HTTP/1.1 413 Request Entity Too Large\r\nContent-Type: text/html\r\nContent-Length: 9\r\nConnection: close\r\n\r\ntoo large"))
	})
	body := []byte(`{"pad":"` + strings.Repeat("x", 2<<20) + `"}`)
	c := New(target{}, base, WithAddr(netip.MustParseAddr("127.0.0.1")))
	defer c.Close()
	for i := 0; i < 20; i++ {
		ex := c.Do(context.Background(), Request{Body: body})
		if ex.Err != nil || ex.Status != http.StatusRequestEntityTooLarge || string(ex.RespBody) != "too large" {
			t.Fatalf("run %d: %s", i, ex.Summary())
		}
	}
}

// TestClientCutShortUploadWithoutReply: a server that resets without
// answering is still an error, not an empty response.
func TestClientCutShortUploadWithoutReply(t *testing.T) {
	base := rawServer(t, func(net.Conn, *http.Request) {})
	c := New(target{}, base, WithAddr(netip.MustParseAddr("127.0.0.1")))
	defer c.Close()
	if ex := c.Do(context.Background(), Request{Body: make([]byte, 2<<20)}); ex.Err == nil {
		t.Fatalf("got %s, want an error", ex.Summary())
	}
}

// cutConn is a connection to a server that answers once the upload has
// failed: writing fails after 64 KiB (the server reset the connection), and
// the answer it sent before the reset is there to read.
type cutConn struct {
	net.Conn // nil: only the methods below are used
	reply    []byte
	failed   chan struct{} // closed when a write has failed
	closed   chan struct{}
	written  int
}

func newCutConn(reply string) *cutConn {
	return &cutConn{reply: []byte(reply), failed: make(chan struct{}), closed: make(chan struct{})}
}

func (c *cutConn) Read(p []byte) (int, error) {
	select {
	case <-c.failed:
	case <-c.closed:
		return 0, net.ErrClosed
	}
	if len(c.reply) == 0 {
		return 0, syscall.ECONNRESET
	}
	n := copy(p, c.reply)
	c.reply = c.reply[n:]
	return n, nil
}

func (c *cutConn) Write(p []byte) (int, error) {
	if c.written += len(p); c.written < 64<<10 {
		return len(p), nil
	}
	select {
	case <-c.failed:
	default:
		close(c.failed)
	}
	return 0, syscall.EPIPE
}

func (c *cutConn) Close() error {
	select {
	case <-c.closed:
	default:
		close(c.closed)
	}
	return nil
}

func (c *cutConn) LocalAddr() net.Addr              { return &net.TCPAddr{} }
func (c *cutConn) RemoteAddr() net.Addr             { return &net.TCPAddr{} }
func (c *cutConn) SetDeadline(time.Time) error      { return nil }
func (c *cutConn) SetReadDeadline(time.Time) error  { return nil }
func (c *cutConn) SetWriteDeadline(time.Time) error { return nil }

// TestClientReadsReplyBeforeWriteError: the reply can be read only once the
// write has failed; net/http's own transport reports the broken pipe.
func TestClientReadsReplyBeforeWriteError(t *testing.T) {
	const reply = "HTTP/1.1 413 Request Entity Too Large\r\nContent-Length: 9\r\nConnection: close\r\n\r\ntoo large"
	dial := func(context.Context, string, string) (net.Conn, error) { return newCutConn(reply), nil }
	c := New(target{}, "http://rlspec.test", withDial(dial))
	defer c.Close()
	for i := 0; i < 20; i++ {
		ex := c.Do(context.Background(), Request{Body: make([]byte, 2<<20)})
		if ex.Err != nil || ex.Status != http.StatusRequestEntityTooLarge {
			t.Fatalf("request %d: %s", i, ex.Summary())
		}
	}
}
