package acceptance

import (
	"context"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/steps"
	"github.com/rlspec/rlspec/target"
)

// faultScenarios is the fault → scenarios table: for each fault of the
// reference, the scenarios that must fail (others may fail too). It is the
// table of acceptance/README.md.
var faultScenarios = map[fakeserver.Fault][]string{
	fakeserver.FaultCheckThenAct:      {"RL-AC7-01", "RL-AC7-02"},
	fakeserver.FaultReplaySpends:      {"RL-AC6-01", "RL-AC6-02"},
	fakeserver.FaultConcurrentReplays: {"RL-AC6-02"},
	fakeserver.FaultReplayIgnoresBody: {"RL-AC6-03"},
	fakeserver.FaultNoHeaders429:      {"RL-AC3-01", "RL-FR7-01"},
	fakeserver.FaultOffByOne:          {"RL-AC1-01", "RL-AC2-01"},
	fakeserver.FaultNoReset:           {"RL-AC4-01"},
	fakeserver.FaultResetKeepsReset:   {"RL-AC4-01"},
	fakeserver.FaultResetRace:         {"RL-AC4-02"},
	fakeserver.Fault429PushesWindow:   {"RL-AC3-03"},
	fakeserver.FaultSlidingReset:      {"RL-AC3-03", "RL-EXT-RESET-01"},
	fakeserver.FaultNoIPFallback:      {"RL-AC5-01", "RL-AC5-03"},
	fakeserver.FaultInvalidBucketKey:  {"RL-AC9-01.1", "RL-AC9-02"},
	fakeserver.FaultTrustXFF:          {"RL-EXT-XFF-01"},
	fakeserver.FaultFlagIgnored:       {"RL-AC8-02"},
	fakeserver.FaultNoHeadersFlagOff:  {"RL-AC8-01", "RL-AC8-02"},
	fakeserver.FaultProcessCache:      {"RL-AC2-01", "RL-AC3-01"},
	fakeserver.FaultNoRetryAfter:      {"RL-AC3-02"},
	fakeserver.FaultBadInput500:       {"RL-EXT-BAD-01.1"},
}

func failedIDs(rep *Report) []string {
	var ids []string
	for _, r := range rep.Results {
		if r.Status == steps.Failed {
			ids = append(ids, r.ID)
		}
	}
	sort.Strings(ids)
	return ids
}

// TestFaultMatrix runs the suite against the reference and every fault:
// the reference passes everything, each fault fails its scenarios.
func TestFaultMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("the fault matrix runs the suite once per fault")
	}
	run := func(t *testing.T, f fakeserver.Fault) *Report {
		tc := target.DefaultConfig()
		rep, err := Run(context.Background(), Config{Target: tc, Fault: f}, WithoutReports())
		if err != nil {
			t.Fatalf("could not run: %v", err)
		}
		return rep
	}
	t.Run("reference", func(t *testing.T) {
		rep := run(t, fakeserver.FaultNone)
		if rep.ExitCode() != 0 || rep.Count(steps.Passed) != wantScenarios {
			t.Fatalf("reference: exit %d, failed %v, %d skipped", rep.ExitCode(), failedIDs(rep), rep.Count(steps.Skipped))
		}
	})
	for _, fi := range fakeserver.Faults() {
		t.Run(string(fi.Fault), func(t *testing.T) {
			want, ok := faultScenarios[fi.Fault]
			if !ok {
				t.Fatalf("fault %s (%s) has no row in faultScenarios", fi.Fault, fi.Clause)
			}
			rep := run(t, fi.Fault)
			got := failedIDs(rep)
			if rep.ExitCode() != 1 {
				t.Errorf("exit %d, want 1", rep.ExitCode())
			}
			for _, id := range want {
				if !slices.Contains(got, id) {
					t.Errorf("%s (%s: %s): scenario %s passed; failed: %s", fi.Fault, fi.Clause, fi.Description, id, strings.Join(got, " "))
				}
			}
			t.Logf("%s → %s", fi.Fault, strings.Join(got, " "))
		})
	}
}
