package prd

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/mock"

	"github.com/rlspec/rlspec/steps/steptest"
)

// The window step seeds through the StateSeeder (mockery mock): it expires
// the bucket's window by its id and passes a seeding failure on verbatim.
func TestWindowPassedUsesTheSeeder(t *testing.T) {
	s := newTestScenario(t, steptest.NewLimiter(10))
	seeder := newMockStateSeeder(t)
	s.Env().Seeder = seeder
	if err := s.freshBucketFirstSent(); err != nil {
		t.Fatal(err)
	}
	seeder.EXPECT().ExpireWindow(mock.Anything, s.Bucket.ID).Return(nil).Once()
	if err := s.windowPassed(); err != nil {
		t.Fatal(err)
	}
	noRow := errors.New("expire window: TARGET_DB has no rate_limit_buckets row")
	seeder.EXPECT().ExpireWindow(mock.Anything, s.Bucket.ID).Return(noRow).Once()
	if err := s.windowPassed(); !errors.Is(err, noRow) {
		t.Fatalf("err = %v, want the seeder's error", err)
	}
}
