package loadgen

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"
)

// job is open-loop request n, due at at.
type job struct {
	n  uint64
	at time.Time
}

// schedule sends job n at its intended time start+At(n) until end, and
// records how late it woke up for each measured job. It runs on a locked
// thread so the clock's precise sleep does not stall other goroutines.
func (a *Attacker) schedule(ctx context.Context, start, measure, end time.Time, lag *recorder, jobs chan<- job) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for n := uint64(0); ; n++ {
		at := start.Add(a.pacer.At(n))
		if !at.Before(end) {
			return
		}
		if err := a.clock.SleepUntil(ctx, at); err != nil {
			return
		}
		if !at.Before(measure) {
			lag.recordLag(a.clock.Now().Sub(at))
		}
		select {
		case jobs <- job{n: n, at: at}:
		case <-ctx.Done():
			return
		}
	}
}

type worker struct {
	a       *Attacker
	ctx     context.Context
	conn    Conn
	rec     *recorder
	pool    *atomic.Pointer[[][]byte]
	measure time.Time
	queue   *keyQueue // nil: no queue modelled
}

func (w *worker) open(jobs <-chan job) {
	defer w.close()
	for j := range jobs {
		if w.ctx.Err() != nil {
			continue // drain without sending
		}
		w.send(j.n, j.at, w.a.clock.Now())
	}
}

func (w *worker) closed(counter *atomic.Uint64, limit uint64, end time.Time) {
	defer w.close()
	now := w.a.clock.Now()
	for w.ctx.Err() == nil {
		if !now.Before(end) {
			return
		}
		n := counter.Add(1) - 1
		if limit > 0 && n >= limit {
			return
		}
		now = w.send(n, now, now) // the next request starts when this one ends
	}
}

// send sends request n, records its outcome and returns when it ended.
func (w *worker) send(n uint64, intended, sent time.Time) time.Time {
	reqs := *w.pool.Load()
	clock := w.a.clock
	var status int
	var err error
	if s, ok := w.conn.(spentConn); ok && s.Spent() {
		w.close() // the server closed it after the last response, as it said
	}
	if w.conn == nil {
		w.conn, err = w.a.dialer.Dial(w.ctx)
	}
	var q queued
	if err == nil {
		q = w.queue.step(n%uint64(len(reqs)), clock)
		status, err = w.conn.RoundTrip(reqs[n%uint64(len(reqs))])
		if err != nil {
			w.close()
		}
	}
	received := clock.Now()
	if !intended.Before(w.measure) {
		w.rec.record(intended, sent, received, status, err, q)
	}
	return received
}

// spentConn is a connection that knows it cannot carry another request
// because the server announced it would close it (Connection: close): the
// worker dials a new one instead of counting a transport error.
type spentConn interface{ Spent() bool }

var _ spentConn = (*httpConn)(nil)

func (w *worker) close() {
	if w.conn != nil {
		_ = w.conn.Close()
		w.conn = nil
	}
}
