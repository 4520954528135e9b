package steps

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
)

// quotaClient answers every request of one key: the first n allowed, the
// rest refused with refuse (429, or a 404/503 of a target that allows
// nothing when n is 0).
type quotaClient struct {
	mu      sync.Mutex
	n       int
	refuse  int
	answers int
}

func (c *quotaClient) Addr() netip.Addr { return netip.MustParseAddr("127.0.0.9") }
func (c *quotaClient) Close()           {}
func (c *quotaClient) Do(_ context.Context, r httpclient.Request) *httpclient.Exchange {
	c.mu.Lock()
	defer c.mu.Unlock()
	ex := &httpclient.Exchange{Method: r.Method, Header: r.Header.Clone(), Sent: time.Now(), Status: c.refuse, RespHeader: http.Header{}}
	if c.answers < c.n {
		ex.Status = http.StatusOK
	}
	c.answers++
	ex.Received = time.Now()
	return ex
}

func keyedScenario(t *testing.T, p profile.Name, c *quotaClient) *scenario.Replayer {
	t.Helper()
	cfg := service.DefaultConfig().ForProfile(p)
	cfg.Limit, cfg.Burst, cfg.Rate = 3, 3, 0.001
	env := &scenario.Env{Config: cfg, URL: "http://fake", Now: time.Now, MaxWait: service.DefaultMaxWait,
		NewClient: func(string) scenario.Client { return c }}
	_, steps := keyedSteps(context.Background(), env)
	return steps
}

// TestBoundsDoNotPassOnNothingAllowed: every "at most" step of the
// profiles fails against a target that allows nothing (404, 503, or 429
// from its first request), and passes against one that allows the key's
// N and refuses the rest.
func TestBoundsDoNotPassOnNothingAllowed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		profile profile.Name
		steps   []string
	}{
		{"FW-1", profile.FixedWindow, []string{"N+1 requests are sent with the key one after another",
			"N+1 requests are sent with the key one after another", "no window held more than N allowed requests of the key"}},
		{"SL-1", profile.SlidingLog, []string{"N+1 requests are sent with the key one after another",
			"no window of length W held more than N allowed requests of the key"}},
		{"TB-1", profile.TokenBucket, []string{"B+1 requests are sent with the key one after another",
			"no interval held more than B + R·Δt + 1 allowed requests of the key"}},
		{"TB drain", profile.TokenBucket, []string{"the key is drained"}},
	} {
		for _, target := range []struct {
			name    string
			allowed int
			refuse  int
			fails   bool
		}{{"404", 0, http.StatusNotFound, true}, {"503", 0, http.StatusServiceUnavailable, true}, {"429", 0, http.StatusTooManyRequests, true},
			{"N-1 then 429", 2, http.StatusTooManyRequests, true}, {"N then 429", 3, http.StatusTooManyRequests, false}} {
			s := keyedScenario(t, tc.profile, &quotaClient{n: target.allowed, refuse: target.refuse})
			if err := s.Run("a fresh key"); err != nil {
				t.Fatal(err)
			}
			var errs []error
			for _, text := range tc.steps {
				errs = append(errs, s.Run(text))
			}
			err := errors.Join(errs...)
			var v *scenario.Violation
			if target.fails && (!errors.As(err, &v) || !strings.Contains(v.Expected, "at least")) {
				if !(tc.name == "TB drain" && target.refuse != http.StatusTooManyRequests && errors.As(err, &v)) {
					t.Errorf("%s against %s: %v, want a violation naming what should have been allowed", tc.name, target.name, err)
				}
			}
			if !target.fails && err != nil {
				t.Errorf("%s against %s: %v, want a pass", tc.name, target.name, err)
			}
		}
	}
}
