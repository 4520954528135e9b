package scenario

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
)

// Request renders a body with field f under a fresh Idempotency-Key.
func (s *State) Request(f bodytmpl.BucketField) (httpclient.Request, error) {
	b, err := s.env.Body.Render(f)
	if err != nil {
		return httpclient.Request{}, fmt.Errorf("render body: %w", err)
	}
	return httpclient.Request{Body: b, IdempotencyKey: bodytmpl.NewUUID()}, nil
}

// Requests renders n requests with field f, each under its own key.
func (s *State) Requests(n int, f bodytmpl.BucketField) ([]httpclient.Request, error) {
	reqs := make([]httpclient.Request, n)
	for i := range reqs {
		r, err := s.Request(f)
		if err != nil {
			return nil, err
		}
		reqs[i] = r
	}
	return reqs, nil
}

// Do sends r with c and records the exchange as evidence.
func (s *State) Do(c Sender, r httpclient.Request) *httpclient.Exchange {
	ex := c.Do(s.ctx, r)
	s.Record(ex)
	return ex
}

// Send sends r with c, records it, and fails when no response came back.
func (s *State) Send(c Sender, r httpclient.Request) (*httpclient.Exchange, error) {
	ex := s.Do(c, r)
	if ex.Err != nil {
		s.assumeAwaited(ex)
		return ex, Violate(clause.Of(clause.FR7), "the target answers every request",
			"an HTTP response", ex.Err.Error(), ex)
	}
	return ex, nil
}

// assumeAwaited records what a request given up on at its deadline
// rests on: rlspec was running when the deadline came. A process that
// could not run then may find the deadline and an answer that came before
// it ready at once, and take the deadline; one that ran read the answer
// first. A request that failed before its deadline (a refused or broken
// connection) rests on no timing, nor does an answer the target never
// sent on a machine that ran.
func (s *State) assumeAwaited(ex *httpclient.Exchange) {
	if ex.Deadline.IsZero() || ex.Received.Before(ex.Deadline) {
		return
	}
	s.Assume("rlspec ran when an unanswered request's deadline came", func() string {
		if lost := s.Stalled(ex.Deadline, ex.Received); lost > 0 {
			return fmt.Sprintf("rlspec itself could not run for %s from the deadline of the request sent at %s until it saw it pass",
				lost.Round(time.Millisecond), ex.Sent.Format("15:04:05.000"))
		}
		return ""
	})
}

// SendFresh is the one render-and-send: a fresh request with field f (and
// header h, may be nil), sent with c.
func (s *State) SendFresh(c Sender, f bodytmpl.BucketField, h http.Header) (httpclient.Request, *httpclient.Exchange, error) {
	r, err := s.Request(f)
	if err != nil {
		return r, nil, err
	}
	r.Header = h
	ex, err := s.Send(c, r)
	return r, ex, err
}

// Fire sends reqs concurrently: connections are pre-dialled, every goroutine
// is ready, then one channel close releases them all at release (zero: at
// once). Any transport failure is a violation.
func (s *State) Fire(c Sender, reqs []httpclient.Request, release time.Time) ([]*httpclient.Exchange, error) {
	s.Predial(c, len(reqs))
	return s.FireDialed(c, reqs, release)
}

// FireDialed is Fire on a client already pre-dialed (Predial): for
// batches on several clients whose release time must be set after every
// client's dials, which a limiter may hold back (nginx delays a burst of
// keyless requests it keys by address).
func (s *State) FireDialed(c Sender, reqs []httpclient.Request, release time.Time) ([]*httpclient.Exchange, error) {
	out, err := s.FireDialedAll([]Dialed{{Sender: c, Reqs: reqs}}, release)
	return out[0], err
}

// Dialed is one batch of FireDialedAll: requests for a client already
// pre-dialed.
type Dialed struct {
	Sender Sender
	Reqs   []httpclient.Request
}

// ReleaseLead is how long after the last client's dials batches of
// several clients are released together (FireDialedAll): time for every
// sending goroutine to be waiting.
const ReleaseLead = 50 * time.Millisecond

// FireDialedAll releases the batches, each on its own client, at one
// instant: every request's goroutine is ready, one wait (the scenario's
// only wait, so an aged clock ages once) and one channel close release
// them all. The exchanges come back by batch; any transport failure is a
// violation.
func (s *State) FireDialedAll(batches []Dialed, release time.Time) ([][]*httpclient.Exchange, error) {
	out := make([][]*httpclient.Exchange, len(batches))
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	for b, batch := range batches {
		out[b] = make([]*httpclient.Exchange, len(batch.Reqs))
		for i, r := range batch.Reqs {
			ready.Add(1)
			done.Add(1)
			go func() {
				defer done.Done()
				ready.Done()
				select {
				case <-start:
				case <-s.ctx.Done():
				}
				out[b][i] = batch.Sender.Do(s.ctx, r)
			}()
		}
	}
	ready.Wait()
	if !release.IsZero() {
		_ = s.WaitUntil(release)
	}
	close(start)
	done.Wait()
	for _, exs := range out {
		s.Record(exs...)
	}
	for _, exs := range out {
		for _, ex := range exs {
			if ex.Err != nil {
				s.assumeAwaited(ex)
				return out, Violate(s.Refs(), "the target answers concurrent requests",
					"an HTTP response to each", ex.Err.Error(), ex)
			}
		}
	}
	return out, nil
}

// Predial opens n connections by sending n concurrent HEAD requests, so
// that the released requests do not queue behind dials.
func (s *State) Predial(c Sender, n int) {
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Do(s.ctx, httpclient.Request{Method: http.MethodHead, ContentType: "-"})
		}()
	}
	wg.Wait()
}
