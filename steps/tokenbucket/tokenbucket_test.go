package tokenbucket

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// A rate so slow that a token-bucket wait exceeds MAX_WAIT is a skip naming
// MAX_WAIT and RL_RATE, never a verdict; second-scale rates wait.
func TestBucketWaitBeyondMaxWaitIsSkippedWithReason(t *testing.T) {
	cfg := service.DefaultConfig().ForProfile(profile.TokenBucket)
	cfg.Burst, cfg.Rate = 5, 0.1 // a token every 10 s
	s := testWorld(context.Background(), &scenario.Env{Config: cfg, Now: time.Now, MaxWait: service.DefaultMaxWait})
	s.Last.Ex = &httpclient.Exchange{Received: time.Now()}
	for name, step := range map[string]func() error{
		"idle 2·B/R":      func() error { return s.idleBurstTimes(2) },
		"idle B/R + 1":    s.idleFull,
		"steady for 10/R": s.steadyClient,
	} {
		err := step()
		if !errors.Is(err, godog.ErrSkip) || !strings.Contains(err.Error(), "MAX_WAIT=15s") || !strings.Contains(err.Error(), "RL_RATE") {
			t.Errorf("%s: err = %v, want a skip naming MAX_WAIT and RL_RATE", name, err)
		}
	}
	var until time.Time
	s.Env().Wait = func(_ context.Context, t time.Time) error { until = t; return nil }
	s.Env().Config.Rate = 2 // k = 1 token: 0.5 s, and 1 s more
	if err := s.idlePartial(); err != nil || until.Sub(s.Last.Ex.Received) != 1500*time.Millisecond {
		t.Errorf("idle k/R + 1 at 2/s: waited until +%s (%v), want +1.5s", until.Sub(s.Last.Ex.Received), err)
	}
}

// A burst with a busy store's 503 and at most B allows is no verdict; more
// than B plus what may have refilled is a violation beside it.
func TestExactlyBurstWithAnUndecidedRequest(t *testing.T) {
	cfg := service.DefaultConfig().ForProfile(profile.TokenBucket)
	cfg.Burst, cfg.Rate = 2, 1
	t0 := time.Now().Truncate(time.Second).Add(100 * time.Millisecond)
	for _, c := range []struct {
		statuses            []int
		violates, undecided bool
	}{
		{[]int{200, 503, 429, 429}, false, true},
		{[]int{200, 200, 429, 429}, false, false},
		{[]int{200, 200, 200, 200, 503}, true, false},
	} {
		s := testWorld(context.Background(), &scenario.Env{Config: cfg, Now: time.Now})
		s.Batch = steptest.BatchOf(t0, c.statuses...)
		err := s.exactlyBurst()
		steptest.UndecidedVerdict(t, fmt.Sprint(c.statuses), err, s.Broken(), c.violates, c.undecided)
	}
}
