// Package trivial is the smallest useful HTTP target: it answers every
// request with 200 and a two-byte JSON body. The load-generator comparison
// uses it to measure generators rather than the rate limiter; with
// WithDelay it has a known latency distribution, against which two
// generators' percentiles can be calibrated.
package trivial

import (
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"time"
)

// Option configures Handler.
type Option func(*config)

type config struct {
	median time.Duration
	sigma  float64
	seed   uint64
}

// WithDelay makes every response wait a random time before it is written:
// log-normal with the given median and shape sigma (0.5 gives p95 ≈ 2.3 ×
// median, p99 ≈ 3.2 × median), drawn from a generator seeded with seed. A
// median of 0 (the default) answers at once.
func WithDelay(median time.Duration, sigma float64, seed uint64) Option {
	return func(c *config) { c.median, c.sigma, c.seed = median, sigma, seed }
}

// Handler drains the request body and answers {}. It is safe for
// concurrent use.
func Handler(opts ...Option) http.Handler {
	var c config
	for _, o := range opts {
		o(&c)
	}
	body := []byte("{}")
	delay := c.delayFunc()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if delay != nil {
			time.Sleep(delay()) // the target's simulated service time
		}
		h := w.Header()
		h["Content-Type"] = []string{"application/json"}
		h["Content-Length"] = []string{"2"}
		_, _ = w.Write(body)
	})
}

// delayFunc returns the delay sampler, nil when there is no delay.
func (c config) delayFunc() func() time.Duration {
	if c.median <= 0 {
		return nil
	}
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(c.seed, c.seed^0x9e3779b97f4a7c15))
	return func() time.Duration {
		mu.Lock()
		z := rng.NormFloat64()
		mu.Unlock()
		return time.Duration(float64(c.median) * math.Exp(c.sigma*z))
	}
}

// Serve serves Handler(opts...) on ln until it is closed.
func Serve(ln net.Listener, opts ...Option) error {
	srv := &http.Server{Handler: Handler(opts...), ReadHeaderTimeout: 10 * time.Second}
	return srv.Serve(ln)
}
