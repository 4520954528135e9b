package steps

import (
	"context"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/steptest"
)

// Every scenario's verdict reaches the Recorder with its id,
// clauses and skip reason.
func TestSkipReasonReachesTheRecorder(t *testing.T) {
	env, err := steptest.Env(steptest.NewLimiter(10))
	if err != nil {
		t.Fatal(err)
	}
	var got []scenario.ScenarioResult
	env.Recorder = steptest.RecordFunc(func(r scenario.ScenarioResult) { got = append(got, r) })
	// no TARGET_URL_DISABLED
	scenario.Run(context.Background(), env, steptest.Scenario("AC8-01 [AC8] x", clause.AC8.Tag(), "@id:AC8-01"), []string{"the flag-off instance"}, registerAll)
	if len(got) != 1 {
		t.Fatalf("%d verdicts recorded, want 1", len(got))
	}
	if r := got[0]; r.Status != scenario.Skipped || r.ID != "AC8-01" || len(r.Clauses) != 1 || r.Clauses[0] != clause.AC8 ||
		!strings.HasPrefix(r.Reason, "TARGET_URL_DISABLED is not set") {
		t.Fatalf("recorded %+v, want AC8-01 skipped for want of TARGET_URL_DISABLED", r)
	}
}
