package loadgen

import (
	"sync"
	"time"

	"github.com/rlspec/rlspec/model"
)

// Queue is a design whose excess waits its turn (profile.Profile.Queues):
// its Decisions carry each allowed request's Wait, and FullWait is the
// wait of a full queue's last place (0 where queued requests are answered
// at once). model.LeakyBucket is one.
type Queue interface {
	model.Model
	FullWait() time.Duration
}

// WithQueue names the design's queue: m is the target's queue (a leaky
// bucket), stepped per key with the times requests are sent. For each response the target allowed, the model's Decision.Wait is
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
// The target decides a little after the send, so at the edge of a full
// queue it may allow a request the model refused (a place freed in
// between): that request was allowed into the last place, and its
// queueing delay is the full queue's, (Burst − Delay) intervals (0 under
// nodelay); the next request of the key, which the model allows, the
// target then refuses. Both are counted (Result.QueueEdge), and come in
// pairs when the target is the bucket modelled.
func WithQueue(m Queue) Option { return func(a *Attacker) { a.queueModel = m } }

// keyQueue is the model's state per key during one attack.
type keyQueue struct {
	mu     sync.Mutex
	m      Queue
	states map[uint64]model.State
}

func newKeyQueue(m Queue) *keyQueue {
	if m == nil {
		return nil
	}
	return &keyQueue{m: m, states: map[uint64]model.State{}}
}

// queued is what the queue model prescribed for one request.
type queued struct {
	modelled bool          // a queue model runs
	allowed  bool          // the model allowed the request
	wait     time.Duration // its Decision.Wait; when refused, the wait of the queue's last place
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
	q2 := queued{modelled: true, allowed: d.Allowed, wait: d.Wait}
	if !d.Allowed {
		q2.wait = q.m.FullWait()
	}
	return q2
}

// recordQueue records a response's queueing delay and service latency
// when a queue is modelled: the delay of a 200 is its wait (the last
// place's when the model refused it); every response's service latency is
// its latency less that delay. It returns where the target and the
// model disagreed: a 200 against a refusal, a 429 against an allowed
// request.
func (h *Histograms) recordQueue(q queued, latency time.Duration, status int, err error) (e QueueEdge) {
	if !q.modelled {
		return e
	}
	var wait time.Duration
	switch {
	case err != nil:
	case status == 200:
		wait = q.wait
		recordLatency(h.Queue, wait)
		if !q.allowed {
			e.Allowed = 1
		}
	case (status == 429 || status == StatusPenalty) && q.allowed:
		e.Refused = 1
	}
	recordLatency(h.Service, latency-wait)
	return e
}

// QueueEdge counts the responses a modelled queue's target decided
// otherwise than the model, at the edge of a full queue (WithQueue).
type QueueEdge struct {
	Allowed int64 `json:"allowed_model_refused"` // 200s the model refused: they took the last place
	Refused int64 `json:"refused_model_allowed"` // 429s the model allowed
}

func (e *QueueEdge) add(o QueueEdge) { e.Allowed += o.Allowed; e.Refused += o.Refused }

// Total is both counts.
func (e QueueEdge) Total() int64 { return e.Allowed + e.Refused }
