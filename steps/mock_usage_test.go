package steps

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/steps/scenario"
)

// The window step seeds through the scenario.StateSeeder (mockery mock): it expires
// the bucket's window by its id and passes a seeding failure on verbatim.
func TestWindowPassedUsesTheSeeder(t *testing.T) {
	s := newTestScenario(t, newFakeLimiter(10))
	seeder := newMockStateSeeder(t)
	s.env.Seeder = seeder
	if err := s.freshBucketFirstSent(); err != nil {
		t.Fatal(err)
	}
	seeder.EXPECT().ExpireWindow(mock.Anything, s.bucket.id).Return(nil).Once()
	if err := s.windowPassed(); err != nil {
		t.Fatal(err)
	}
	noRow := errors.New("expire window: TARGET_DB has no rate_limit_buckets row")
	seeder.EXPECT().ExpireWindow(mock.Anything, s.bucket.id).Return(noRow).Once()
	if err := s.windowPassed(); !errors.Is(err, noRow) {
		t.Fatalf("err = %v, want the seeder's error", err)
	}
}

// Every scenario's verdict reaches the Recorder (mockery mock) with its id,
// clauses and skip reason.
func TestSkipReasonReachesTheRecorder(t *testing.T) {
	s := newTestScenario(t, newFakeLimiter(10))
	rec := newMockRecorder(t)
	s.env.Recorder = rec
	rec.EXPECT().Record(mock.MatchedBy(func(r scenario.ScenarioResult) bool {
		return r.Status == scenario.Skipped && r.ID == "AC8-01" && len(r.Clauses) == 1 && r.Clauses[0] == clause.AC8 &&
			strings.HasPrefix(r.Reason, "TARGET_URL_DISABLED is not set")
	})).Once()
	// no TARGET_URL_DISABLED
	scenario.Run(context.Background(), s.env, fakeGodogScenario("AC8-01 [AC8] x", clause.AC8.Tag(), "@id:AC8-01"), []string{"the flag-off instance"}, registerWorld)
}
