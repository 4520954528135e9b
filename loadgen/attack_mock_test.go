package loadgen

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/mock"
)

// With the mockery mocks: on a scripted Clock, an open-loop run of 5
// requests over a Dialer whose connection fails one request must count
// exactly that one as a transport error, close the failed connection and
// redial, and count the other four as 200s.
func TestAttackCountsATransportErrorWithMocks(t *testing.T) {
	var (
		mu  sync.Mutex
		now = time.Unix(1_700_000_000, 0)
	)
	clk := newMockClock(t)
	clk.EXPECT().Now().RunAndReturn(func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return now
	})
	clk.EXPECT().SleepUntil(mock.Anything, mock.Anything).RunAndReturn(func(ctx context.Context, at time.Time) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if at.After(now) {
			now = at
		}
		return nil
	}).Maybe()

	reset := errors.New("connection reset by peer")
	newConn := func() Conn {
		c := newMockConn(t)
		c.EXPECT().RoundTrip([]byte("req-0")).Return(0, reset).Maybe()
		c.EXPECT().RoundTrip(mock.Anything).Return(200, nil).Maybe()
		c.EXPECT().Close().Return(nil).Maybe()
		return c
	}
	d := newMockDialer(t)
	d.EXPECT().Dial(mock.Anything).RunAndReturn(func(context.Context) (Conn, error) { return newConn(), nil }).Times(2)

	res := runAttack(t, d, fixedRequests(5), WithClock(clk),
		WithRate(1000), WithDuration(5*time.Millisecond), WithWarmup(0), WithConnections(1))
	s := StatusCountsOf(res.Totals.Status)
	if s.TransportErrors != 1 || s.OK != 4 || s.Codes["error"] != 1 {
		t.Fatalf("status counts %+v, want 1 transport error and 4 OK", s)
	}
	if len(res.ErrorSample) == 0 {
		t.Error("no error sample for the transport error")
	}
}
