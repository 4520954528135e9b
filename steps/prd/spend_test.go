package prd

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// An AC6-02 failure says how many units the concurrent identical requests
// spent: with replays processed again, 3 rounds of 4 spend 12, not 3.
func TestAC6FailureSaysWhatTheRoundsSpent(t *testing.T) {
	lim := steptest.NewLimiter(50)
	lim.NoReplay = true
	s := newTestScenario(t, lim)
	if err := s.FreshBucket(); err != nil {
		t.Fatal(err)
	}
	if err := s.concurrentIdentical(3, 4); err != nil {
		t.Fatal(err)
	}
	err := s.nextLimitMinus(4)
	var v *scenario.Violation
	if !errors.As(err, &v) || !strings.Contains(v.Actual, "the 3 rounds of 4 identical requests spent 12 units (one per round is 3); 200s per round: [4 4 4]") {
		t.Fatalf("err = %v", err)
	}
}

// An AC9 failure says whether a unit of the address's quota was spent
// under the invalid value: none when the target keys it as a bucket of its
// own, one when the target keys it by the address (and the failure lies
// elsewhere).
func TestAC9FailureSaysWhetherAUnitWasSpent(t *testing.T) {
	for _, tc := range []struct {
		ownBucket bool
		want      string
	}{
		{true, "no unit of the address's quota was spent under the 1 invalid device_bucket value(s) (the last one got 200 with Remaining 9: it was counted on a bucket of its own)"},
		{false, "one unit of the address's quota was spent under each of the 1 invalid device_bucket value(s)"},
	} {
		lim := steptest.NewLimiter(10)
		lim.OwnBucket = tc.ownBucket
		s := newTestScenario(t, lim)
		if err := s.sendNoBucket(); err != nil {
			t.Fatal(err)
		}
		if err := s.sendInvalidBucket("not-a-hash"); err != nil {
			t.Fatal(err)
		}
		s.Fail(s.remainingIs(s.Limit()-3, "")) // -3 so that the correct keying fails too
		var got scenario.ScenarioResult
		s.Env().Recorder = steptest.RecordFunc(func(r scenario.ScenarioResult) { got = r })
		s.End(context.Background(), steptest.Scenario("AC9-01.1 [AC9] x", clause.AC9.Tag(), "@id:AC9-01.1"))
		if got.Violation == nil || !strings.Contains(got.Reason, tc.want) {
			t.Errorf("ownBucket=%v: reason %q lacks %q", tc.ownBucket, got.Reason, tc.want)
		}
	}
}
