package leakybucket

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/scenario"
)

// ms is n milliseconds into the tests' timeline.
func ms(n int) time.Time {
	return time.Unix(1_800_000_000, 0).Add(time.Duration(n) * time.Millisecond)
}

// More than B + 1 allowed of a concurrent burst is a violation only where
// no placement of the decisions explains it: an extra that came back
// before a place could drain for it. One that came back later may have
// been decided later (a queued answer in delay mode, a store serialising
// the decisions under load): that run is not judged, never failed.
// B is 5 and R 2/s (a place drains each 500 ms): B + 1 + 3 requests sent
// together, all allowed.
func TestOverAllowNeedsNoPlacement(t *testing.T) {
	for _, mode := range []string{service.LBModeDelay, service.LBModeNoDelay} {
		cfg := service.DefaultConfig().WithTokenBucketDefaults()
		cfg.LBMode = mode
		for _, c := range []struct {
			name      string
			answerMs  func(i int) int // the i-th request's latency
			violation bool
			broken    string
		}{
			{"all answered at once", func(int) int { return 20 }, true, ""},
			{"the extras back faster than places drain", func(i int) int { return 100 * i }, true, ""},
			{"answered one each 1/R (a queue, or decisions that late)", func(i int) int { return 20 + 500*i }, false, "found places drained at R"},
			{"decisions serialised 300 ms apart", func(i int) int { return 300 * (i + 1) }, false, "found places drained at R"},
		} {
			var exs []*httpclient.Exchange
			for i := range cfg.Burst + 1 + 3 {
				sent := ms(i)
				exs = append(exs, &httpclient.Exchange{Status: 200, Sent: sent, Received: sent.Add(time.Duration(c.answerMs(i)) * time.Millisecond)})
			}
			env := &scenario.Env{Config: cfg, Stalls: func(from, to time.Time) time.Duration { return 0 }}
			s := &state{World: keyed.New(scenario.New(context.Background(), env))}
			s.Batch = scenario.Batch{Exchanges: exs, Sent: len(exs)}
			err := s.queueBound()
			if err != nil && s.Broken() == "" {
				s.Fail(err)
			}
			if (err != nil && s.Broken() == "") != c.violation {
				t.Errorf("%s, %s: verdict %v (broken %q), want a violation %v", mode, c.name, err, s.Broken(), c.violation)
			}
			if got := s.Broken(); c.broken == "" && got != "" || c.broken != "" && !strings.Contains(got, c.broken) {
				t.Errorf("%s, %s: broken %q, want %q", mode, c.name, got, c.broken)
			}
		}
	}
}
