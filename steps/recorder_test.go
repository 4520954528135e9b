package steps

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/mock"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// Every scenario's verdict reaches the Recorder (mockery mock) with its id,
// clauses and skip reason.
func TestSkipReasonReachesTheRecorder(t *testing.T) {
	env, err := steptest.Env(steptest.NewLimiter(10))
	if err != nil {
		t.Fatal(err)
	}
	rec := newMockRecorder(t)
	env.Recorder = rec
	rec.EXPECT().Record(mock.MatchedBy(func(r scenario.ScenarioResult) bool {
		return r.Status == scenario.Skipped && r.ID == "AC8-01" && len(r.Clauses) == 1 && r.Clauses[0] == clause.AC8 &&
			strings.HasPrefix(r.Reason, "TARGET_URL_DISABLED is not set")
	})).Once()
	// no TARGET_URL_DISABLED
	scenario.Run(context.Background(), env, steptest.Scenario("AC8-01 [AC8] x", clause.AC8.Tag(), "@id:AC8-01"), []string{"the flag-off instance"}, registerAll)
}
