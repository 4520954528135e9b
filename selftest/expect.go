package selftest

import (
	"fmt"

	"github.com/rlspec/rlspec/fakeserver"
)

// Expectation is what the self-test demands of one fault.
type Expectation struct {
	Fault fakeserver.Fault
	// Scenarios are acceptance scenario ids that must fail against the
	// fault (others may fail too). Empty: the acceptance suite is still run
	// and its verdict shown, but nothing is required of it.
	Scenarios []string
	// Race: the race hunter must find a violation.
	Race bool
	// Replicas is the number of in-process servers on one database file
	// the race hunter targets (process-cache needs more than one).
	Replicas int
}

// expectations: fault → what must catch it. The scenario lists are those
// measured with the embedded reference (limit 500, window 1 h, TARGET_DB
// seeding); see acceptance/README.md for the full lists.
var expectations = []Expectation{
	{Fault: fakeserver.FaultCheckThenAct, Scenarios: []string{"RL-AC7-01", "RL-AC7-02"}, Race: true, Replicas: 1},
	{Fault: fakeserver.FaultReplaySpends, Scenarios: []string{"RL-AC6-01", "RL-AC6-02"}},
	{Fault: fakeserver.FaultConcurrentReplays, Scenarios: []string{"RL-AC6-02"}, Race: true, Replicas: 1},
	{Fault: fakeserver.FaultReplayIgnoresBody, Scenarios: []string{"RL-AC6-03"}},
	{Fault: fakeserver.FaultNoHeaders429, Scenarios: []string{"RL-AC3-01", "RL-FR7-01"}},
	{Fault: fakeserver.FaultOffByOne, Scenarios: []string{"RL-AC1-01", "RL-AC2-01"}},
	{Fault: fakeserver.FaultNoReset, Scenarios: []string{"RL-AC4-01"}},
	{Fault: fakeserver.FaultResetKeepsReset, Scenarios: []string{"RL-AC4-01"}},
	{Fault: fakeserver.FaultResetRace, Scenarios: []string{"RL-AC4-02"}, Race: true, Replicas: 1},
	{Fault: fakeserver.Fault429PushesWindow, Scenarios: []string{"RL-AC3-03"}},
	{Fault: fakeserver.FaultSlidingReset, Scenarios: []string{"RL-AC3-03", "RL-EXT-RESET-01"}},
	{Fault: fakeserver.FaultNoIPFallback, Scenarios: []string{"RL-AC5-01", "RL-AC5-03"}},
	{Fault: fakeserver.FaultInvalidBucketKey, Scenarios: []string{"RL-AC9-01.1", "RL-AC9-02"}},
	{Fault: fakeserver.FaultTrustXFF, Scenarios: []string{"RL-EXT-XFF-01"}},
	{Fault: fakeserver.FaultFlagIgnored, Scenarios: []string{"RL-AC8-02"}},
	{Fault: fakeserver.FaultNoHeadersFlagOff, Scenarios: []string{"RL-AC8-01", "RL-AC8-02"}},
	// The acceptance suite sees process-cache only because TARGET_DB
	// seeding writes behind the cache; its real symptom, oversell across
	// replicas, is the race hunter's to find. Nothing is required of the
	// suite here.
	{Fault: fakeserver.FaultProcessCache, Race: true, Replicas: 2},
	{Fault: fakeserver.FaultNoRetryAfter, Scenarios: []string{"RL-AC3-02"}},
	{Fault: fakeserver.FaultBadInput500, Scenarios: []string{"RL-EXT-BAD-01.1"}},
	{Fault: fakeserver.FaultNoHeadersFallback, Scenarios: []string{"RL-FR7-02"}},
}

// Expectations returns the matrix's demands, one per fault, in the order
// of fakeserver.Faults(). It fails when a fault has no row (a new fault
// must be given a detector) or a row names an unknown fault.
func Expectations() ([]Expectation, error) {
	byFault := make(map[fakeserver.Fault]Expectation, len(expectations))
	for _, e := range expectations {
		if _, dup := byFault[e.Fault]; dup {
			return nil, fmt.Errorf("selftest: fault %s listed twice", e.Fault)
		}
		if len(e.Scenarios) == 0 && !e.Race {
			return nil, fmt.Errorf("selftest: fault %s has no detector", e.Fault)
		}
		byFault[e.Fault] = e
	}
	out := make([]Expectation, 0, len(expectations))
	for _, fi := range fakeserver.Faults() {
		e, ok := byFault[fi.Fault]
		if !ok {
			return nil, fmt.Errorf("selftest: fault %s (%s) has no expectation: give it a detector in selftest/expect.go", fi.Fault, fi.Clause)
		}
		delete(byFault, fi.Fault)
		e.Scenarios = append([]string(nil), e.Scenarios...)
		out = append(out, e)
	}
	for f := range byFault {
		return nil, fmt.Errorf("selftest: expectation for unknown fault %s", f)
	}
	return out, nil
}
