package keyed

import (
	"context"
	"testing"
	"time"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// A batch with a busy store's 503 and at most N allows is no verdict: the
// undecided request may have been the N-th. More than N is a violation
// whatever it would have been; a 500 is no undecided answer.
func TestExactlyNWithAnUndecidedRequest(t *testing.T) {
	cfg := service.DefaultConfig().ForProfile(profile.SlidingLog)
	cfg.Limit = 2
	for _, c := range []struct {
		name                string
		statuses            []int
		violates, undecided bool
	}{
		{"one busy in place of an allow", []int{200, 503, 429, 429}, false, true},
		{"decided", []int{200, 200, 429, 429}, false, false},
		{"oversell beside a busy one", []int{200, 200, 200, 503}, true, false},
		{"a 500 is no undecided answer", []int{200, 500, 429, 429}, true, false},
	} {
		s := testWorld(context.Background(), &scenario.Env{Config: cfg, Now: time.Now})
		s.Batch = steptest.BatchOf(time.Now(), c.statuses...)
		err := s.ExactlyN()
		steptest.UndecidedVerdict(t, c.name, err, s.Broken(), c.violates, c.undecided)
	}
}
