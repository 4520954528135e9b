package steps

import (
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
)

// request renders a body with field f under a fresh Idempotency-Key.
func (s *scenario) request(f bodytmpl.BucketField) (httpclient.Request, error) {
	b, err := s.env.Body.Render(f)
	if err != nil {
		return httpclient.Request{}, fmt.Errorf("render body: %w", err)
	}
	return httpclient.Request{Body: b, IdempotencyKey: bodytmpl.NewUUID()}, nil
}

// requests renders n requests with field f, each under its own key.
func (s *scenario) requests(n int, f bodytmpl.BucketField) ([]httpclient.Request, error) {
	reqs := make([]httpclient.Request, n)
	for i := range reqs {
		r, err := s.request(f)
		if err != nil {
			return nil, err
		}
		reqs[i] = r
	}
	return reqs, nil
}

// do sends r with c and records the exchange as evidence.
func (s *scenario) do(c Sender, r httpclient.Request) *httpclient.Exchange {
	ex := c.Do(s.ctx, r)
	s.record(ex)
	return ex
}

// send sends r with c, records it, and fails when no response came back.
func (s *scenario) send(c Sender, r httpclient.Request) (*httpclient.Exchange, error) {
	ex := s.do(c, r)
	if ex.Err != nil {
		return ex, violation(clause.Of(clause.FR7), "the target answers every request",
			"an HTTP response", ex.Err.Error(), ex)
	}
	return ex, nil
}

// sendFresh is the one render-and-send: a fresh request with field f (and
// header h, may be nil), sent with c.
func (s *scenario) sendFresh(c Sender, f bodytmpl.BucketField, h http.Header) (httpclient.Request, *httpclient.Exchange, error) {
	r, err := s.request(f)
	if err != nil {
		return r, nil, err
	}
	r.Header = h
	ex, err := s.send(c, r)
	return r, ex, err
}

// one sends a fresh request as the scenario's last exchange; the first one
// on a bucket also becomes its first exchange.
func (s *scenario) one(c Sender, f bodytmpl.BucketField) (*httpclient.Exchange, error) {
	return s.oneWith(c, f, nil)
}

func (s *scenario) oneWith(c Sender, f bodytmpl.BucketField, h http.Header) (*httpclient.Exchange, error) {
	if s.bucket.first == nil {
		if err := s.alignWindowStart(); err != nil {
			return nil, err
		}
		s.bucket.from, s.bucket.until = s.recorded(), -1
		if !s.windowAssumed {
			s.windowAssumed = true
			s.assume("one window", func() string { return s.refill(s.bucket.from, s.bucket.until) })
		}
	}
	r, ex, err := s.sendFresh(c, f, h)
	if ex == nil {
		return nil, err
	}
	s.last = lastExchange{req: r, ex: ex, keyed: ex}
	if s.bucket.first == nil {
		s.bucket.first = ex
	}
	if err == nil && ex.Status < 500 {
		if _, perr := ex.RateLimit(); perr == nil {
			s.bucket.spent = ex
		}
	}
	return ex, err
}

// fire sends reqs concurrently: connections are pre-dialled, every goroutine
// is ready, then one channel close releases them all at release (zero: at
// once). Any transport failure is a violation.
func (s *scenario) fire(c Sender, reqs []httpclient.Request, release time.Time) ([]*httpclient.Exchange, error) {
	s.predial(c, len(reqs))
	out := make([]*httpclient.Exchange, len(reqs))
	start := make(chan struct{})
	var ready, done sync.WaitGroup
	for i, r := range reqs {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			select {
			case <-start:
			case <-s.ctx.Done():
			}
			out[i] = c.Do(s.ctx, r)
		}()
	}
	ready.Wait()
	if !release.IsZero() {
		_ = s.waitUntil(release)
	}
	close(start)
	done.Wait()
	s.record(out...)
	for _, ex := range out {
		if ex.Err != nil {
			return out, violation(clause.Of(clause.FR4), "the target answers concurrent requests",
				"an HTTP response to each", ex.Err.Error(), ex)
		}
	}
	return out, nil
}

// predial opens n connections by sending n concurrent HEAD requests, so
// that the released requests do not queue behind dials.
func (s *scenario) predial(c Sender, n int) {
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
