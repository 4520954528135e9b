package loadgen

import (
	"sync"
	"time"

	"github.com/rlspec/rlspec/model"
)

// WithQueue names the design's queue: m is the target's model (a leaky
// bucket, model.LeakyBucket), stepped per key with the times requests are
// sent. For each response the target allowed, the model's Decision.Wait is
// the queueing delay the design prescribes: it is recorded in its own
// histogram (Histograms.Queue) and taken off the latency to give the
// service latency (Histograms.Service). Without it no queue is modelled.
//
// Request n is made as key n mod the number of rendered requests, as the
// attack sends it. The model is stepped when the request goes on the wire,
// under one lock, so per key it sees the send times in the order the
// requests left; two requests of one key sent on different connections
// within an interval of each other may reach the target in the other
// order, which swaps their waits and leaves the distribution as it is.
func WithQueue(m model.Model) Option { return func(a *Attacker) { a.queueModel = m } }

// keyQueue is the model's state per key during one attack.
type keyQueue struct {
	mu     sync.Mutex
	m      model.Model
	states map[uint64]model.State
}

func newKeyQueue(m model.Model) *keyQueue {
	if m == nil {
		return nil
	}
	return &keyQueue{m: m, states: map[uint64]model.State{}}
}

// queued is what the queue model prescribed for one request.
type queued struct {
	modelled bool          // a queue model runs
	allowed  bool          // the model allowed the request
	wait     time.Duration // its Decision.Wait
}

// step decides a request of key at the clock's now, read under the lock so
// that the times a key sees never go back.
func (q *keyQueue) step(key uint64, clock Clock) queued {
	if q == nil {
		return queued{}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	next, d := q.m.Step(q.states[key], model.Request{Cost: 1}, clock.Now())
	if d.Write {
		q.states[key] = next
	}
	return queued{modelled: true, allowed: d.Allowed, wait: d.Wait}
}

// recordQueue records a response's queueing delay and service latency
// when a queue is modelled: the delay of a 200 the model allowed is its
// wait; every response's service latency is its latency less that delay.
// It reports whether the target and the model disagreed (200 against a
// refusal, or 429 against an allowed request).
func (h *Histograms) recordQueue(q queued, latency time.Duration, status int, err error) (disagreed bool) {
	if !q.modelled {
		return false
	}
	var wait time.Duration
	switch {
	case err != nil:
	case status == 200 && q.allowed:
		wait = q.wait
		recordLatency(h.Queue, wait)
	case status == 200, status == 429 && q.allowed:
		disagreed = true
	}
	recordLatency(h.Service, latency-wait)
	return disagreed
}
