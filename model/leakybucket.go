package model

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// LeakyBucket is profiles.md's leaky-bucket, the web servers' and proxies'
// request shaping (nginx limit_req): a per-key queue of Burst places in
// front of one request in service, drained at Rate requests per second.
//
// It is kept as the instant the queue is empty again (free, unix
// microseconds), as TokenBucket keeps its full instant; interval =
// ⌈1e6/Rate⌉ µs per request. A request at t finds the backlog
// b = max(free − t, 0):
//
//   - b > Burst·interval: the queue is full; refused at once, nothing
//     changes, RetryAfter = whole seconds until a place is free.
//   - otherwise allowed; free moves to max(free, t) + interval, and the
//     answer is held Wait = b (its turn), less Delay·interval (RL_DELAY:
//     the first Delay queued requests are answered at once), or not at all
//     with NoDelay (LB_MODE=nodelay: answered at once, the places still
//     freed at Rate — a token bucket of Burst + 1).
//
// So Burst + 1 requests at one instant are allowed, the i-th (from 0)
// answered i·interval later (LB-2, LB-3), and answers leave no faster
// than Rate (LB-1). Limit = Burst + 1, Remaining = places left after the
// request, Reset = the second the queue is empty.
type LeakyBucket struct {
	Burst   int     // queue places beyond the one in service
	Rate    float64 // requests per second
	Delay   int     // queued requests answered at once (RL_DELAY)
	NoDelay bool    // LB_MODE=nodelay
}

var _ Model = LeakyBucket{}

// NewLeakyBucket checks burst >= 0, delay in [0, burst] and a finite rate in
// (0, 1e6] requests/s.
func NewLeakyBucket(burst int, rate float64, delay int, noDelay bool) (LeakyBucket, error) {
	switch {
	case burst < 0:
		return LeakyBucket{}, fmt.Errorf("leaky-bucket model: burst %d is negative", burst)
	case delay < 0 || delay > burst:
		return LeakyBucket{}, fmt.Errorf("leaky-bucket model: delay %d is not in [0, burst %d]", delay, burst)
	case math.IsNaN(rate) || rate <= 0 || rate > 1e6:
		return LeakyBucket{}, fmt.Errorf("leaky-bucket model: rate %g is not in (0, 1000000] requests per second", rate)
	}
	return LeakyBucket{Burst: burst, Rate: rate, Delay: delay, NoDelay: noDelay}, nil
}

// Interval is the microseconds one request takes to drain.
func (m LeakyBucket) Interval() int64 { return int64(math.Ceil(1e6 / m.Rate)) }

// Step applies the rule above.
func (m LeakyBucket) Step(st State, req Request, now time.Time) (State, Decision) {
	t, iv := now.UnixMicro(), m.Interval()
	free := max(FullAt(st), t)
	backlog := free - t
	d := Decision{Limit: m.Burst + 1, Remaining: m.left(backlog, iv), Reset: max(ceilDiv(free, 1_000_000), now.Unix()+1)}
	if req.Cost == 0 {
		d.Allowed = true
		return st, d
	}
	if backlog > int64(m.Burst)*iv {
		d.RetryAfter = max(ceilDiv(backlog-int64(m.Burst)*iv, 1_000_000), 1)
		return st, d
	}
	free += int64(req.Cost) * iv
	next := State{Found: true, Remaining: m.left(free-t, iv), Reset: max(ceilDiv(free, 1_000_000), now.Unix()+1), Log: strconv.FormatInt(free, 10)}
	d.Allowed, d.Remaining, d.Reset, d.Write = true, next.Remaining, next.Reset, true
	if !m.NoDelay {
		d.Wait = time.Duration(max(backlog-int64(m.Delay)*iv, 0)) * time.Microsecond
	}
	return next, d
}

// left is the places free with backlog ahead: Burst + 1 less the requests
// still to drain.
func (m LeakyBucket) left(backlog, iv int64) int {
	return max(m.Burst+1-int(ceilDiv(backlog, iv)), 0)
}

// Canonical is st as it decides every request from at on: the key never
// seen once its queue is empty, else that instant alone.
func (m LeakyBucket) Canonical(st State, at time.Time) State { return bucketCanonical(st, at) }

// ResetHorizon is the furthest a Reset may lie ahead: the time a full
// queue of B + 1 takes to drain, ⌈(B+1)/R⌉ s.
func (m LeakyBucket) ResetHorizon() time.Duration { return fillTime(float64(m.Burst+1), m.Rate) }

// FullWait is the wait of a full queue's last place: (B − D) intervals in
// delay mode, 0 under nodelay (loadgen's queueing delay of a request the
// target let into the last place).
func (m LeakyBucket) FullWait() time.Duration {
	if m.NoDelay {
		return 0
	}
	return time.Duration(int64(m.Burst-m.Delay)*m.Interval()) * time.Microsecond
}
