package httpclient

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptrace"
	"sync"
)

// bulkBody is the body size from which a request goes on its own
// connection through the upload transport: a body that does not fit in the
// socket buffers can be cut short by a server that has already answered.
const bulkBody = 64 << 10

// uploadConn is a connection whose upload may be cut short by the server. A
// server may answer (413, 401) before it has read the whole body and close
// the connection, as nginx does; the rest of the upload then fails with a
// broken pipe or a reset. uploadConn keeps the first write error and
// reports every later write as done, so that net/http goes on to read the
// answer the server already sent instead of racing it with the write error.
// It is used only on connections that carry one request.
type uploadConn struct {
	net.Conn
	mu       sync.Mutex
	writeErr error
}

func (c *uploadConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	cut := c.writeErr != nil
	c.mu.Unlock()
	if cut {
		return len(p), nil
	}
	n, err := c.Conn.Write(p)
	if err != nil && n < len(p) {
		c.mu.Lock()
		c.writeErr = err
		c.mu.Unlock()
		return len(p), nil
	}
	return n, err
}

// cutShort returns the write error that cut the upload short, if any.
func (c *uploadConn) cutShort() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.writeErr
}

// newUploadTransport returns a transport for large bodies: one connection
// per request, each an uploadConn.
func newUploadTransport(dial func(ctx context.Context, network, addr string) (net.Conn, error), base *http.Transport) *http.Transport {
	tr := base.Clone()
	tr.DisableKeepAlives = true
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &uploadConn{Conn: c}, nil
	}
	return tr
}

// traceUpload makes ctx record the uploadConn its request is sent on.
func traceUpload(ctx context.Context) (context.Context, func() error) {
	var (
		mu   sync.Mutex
		conn *uploadConn
	)
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) {
		if uc, ok := i.Conn.(*uploadConn); ok {
			mu.Lock()
			conn = uc
			mu.Unlock()
		}
	}})
	return ctx, func() error {
		mu.Lock()
		defer mu.Unlock()
		if conn == nil {
			return nil
		}
		return conn.cutShort()
	}
}

// uploadError names a cut-short upload when no answer came either.
func uploadError(err, cut error) error {
	if cut == nil || errors.Is(err, cut) {
		return err
	}
	return fmt.Errorf("upload cut short (%v) and no response: %w", cut, err)
}
