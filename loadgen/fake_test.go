package loadgen

import (
	"context"
	"errors"
	"sync"
	"time"
)

// fakeDialer hands out fakeConns that answer from a script keyed by the
// request bytes.
type fakeDialer struct {
	mu     sync.Mutex
	dials  int
	script map[string]int // request -> status; -1 = transport error
}

var _ Dialer = (*fakeDialer)(nil)

func (d *fakeDialer) Dial(context.Context) (Conn, error) {
	d.mu.Lock()
	d.dials++
	d.mu.Unlock()
	return &fakeConn{d: d}, nil
}

type fakeConn struct {
	d      *fakeDialer
	closed bool
}

var _ Conn = (*fakeConn)(nil)

func (c *fakeConn) RoundTrip(req []byte) (int, error) {
	if c.closed {
		return 0, errors.New("use of closed fake connection")
	}
	st, ok := c.d.script[string(req)]
	if !ok {
		st = 200
	}
	if st < 0 {
		return 0, errors.New("fake connection reset")
	}
	return st, nil
}

func (c *fakeConn) Close() error { c.closed = true; return nil }

// fakeClock jumps to whatever time it is asked to sleep until, plus a fixed
// lateness, so a scheduler on it runs instantly and deterministically.
type fakeClock struct {
	mu   sync.Mutex
	now  time.Time
	late time.Duration
}

var _ Clock = (*fakeClock)(nil)

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) SleepUntil(ctx context.Context, t time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t.Add(c.late)
	}
	return nil
}
