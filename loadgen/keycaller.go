package loadgen

import (
	"context"
	"fmt"
	"time"
)

// KeyCaller is a connection to a target that is not an HTTP server and
// decides one key's request per call (sqltarget.Conn: spec/004's function
// on a connection of its own). Check returns the decision as an HTTP
// status; an error means the connection is lost.
type KeyCaller interface {
	Check(ctx context.Context, key string) (status int, err error)
	Close() error
}

// KeyDialer dials KeyCallers; with it, a request's pre-rendered bytes
// (KeyRequests) are the key it is made as.
type KeyDialer struct {
	dial    func(ctx context.Context) (KeyCaller, error)
	timeout time.Duration
}

var (
	_ Dialer = (*KeyDialer)(nil)
	_ Conn   = (*keyConn)(nil)
)

// NewKeyDialer returns a dialer of dial's connections; timeout bounds each
// call.
func NewKeyDialer(dial func(ctx context.Context) (KeyCaller, error), timeout time.Duration) *KeyDialer {
	return &KeyDialer{dial: dial, timeout: timeout}
}

// Dial opens one connection.
func (d *KeyDialer) Dial(ctx context.Context) (Conn, error) {
	c, err := d.dial(ctx)
	if err != nil {
		return nil, err
	}
	return &keyConn{c: c, timeout: d.timeout}, nil
}

type keyConn struct {
	c       KeyCaller
	timeout time.Duration
}

func (k *keyConn) RoundTrip(req []byte) (int, error) {
	ctx, cancel := context.WithTimeout(context.Background(), k.timeout)
	defer cancel()
	return k.c.Check(ctx, string(req))
}

func (k *keyConn) Close() error { return k.c.Close() }

// KeyRequests returns a render function for a KeyDialer: one request per
// key, each request's bytes the key.
func KeyRequests(keys []string) func() ([][]byte, error) {
	return func() ([][]byte, error) {
		if len(keys) == 0 {
			return nil, fmt.Errorf("no keys to call as")
		}
		out := make([][]byte, len(keys))
		for i, k := range keys {
			out[i] = []byte(k)
		}
		return out, nil
	}
}
