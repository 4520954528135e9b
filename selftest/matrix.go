package selftest

import (
	"slices"
	"strings"
	"time"

	"github.com/rlspec/rlspec/racehunt/histcheck"
	"github.com/rlspec/rlspec/steps/scenario"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/profile"
)

// AcceptanceResult is one acceptance run's outcome.
type AcceptanceResult struct {
	Passed, Failed, Skipped int
	PassedIDs               []string // sorted
	FailedIDs               []string // sorted
	SkippedIDs              []string // sorted
	// NotClaimedIDs are scenarios of extended features the reference does
	// not claim (FAIL-2 fail-open), skipped as "not claimed" and counted
	// apart: they are not a skip of claimed work.
	NotClaimedIDs []string // sorted
	// NotYetIDs are the profile's core clauses no scenario checks yet,
	// skipped as "not yet checked" and counted apart.
	NotYetIDs []string // sorted
	// SkipReasons are the skipped scenarios' reasons, by id.
	SkipReasons map[string]string
	// FailReasons are the failed scenarios' messages, by id: a reference
	// that fails says why.
	FailReasons map[string]string
	Elapsed     time.Duration
}

// RaceResult is one race hunt's outcome.
type RaceResult struct {
	Ran       bool
	Replicas  int
	Found     bool
	Class     histcheck.Class
	Checks    int           // workloads run without violation (before the failure, or in all)
	Detected  time.Duration // start to first failing workload
	Elapsed   time.Duration
	Violation string // the first violation, when found
}

// Row is one fault's line of the matrix.
type Row struct {
	Expectation
	Clause      clause.Refs
	Description string
	Acceptance  AcceptanceResult
	Race        RaceResult
	// Missed are required scenarios that passed against the fault.
	Missed []string
	// Detections count, with DETECT runs, how many of the Runs single suites
	// each scenario failed against the fault; nil with one run.
	Detections map[string]int
	Runs       int
}

// missedBy are the scenarios of required that did not fail in r.
func missedBy(required []string, r AcceptanceResult) []string {
	var out []string
	for _, id := range required {
		if !slices.Contains(r.FailedIDs, id) {
			out = append(out, id)
		}
	}
	return out
}

// Caught reports whether any detector caught the fault.
func (r Row) Caught() bool { return r.Acceptance.Failed > 0 || r.Race.Found }

// OK reports whether every demand of the expectation was met.
func (r Row) OK() bool {
	if r.Expectation.Pending() {
		return true // its clauses have no scenario yet: nothing is demanded
	}
	return r.Caught() && len(r.Missed) == 0 && (!r.Expectation.Race || r.Race.Found)
}

// ReferenceRun is one run against the correct reference.
type ReferenceRun struct {
	N          int
	Acceptance AcceptanceResult
	Race       RaceResult
	raceChecks int
}

// OK reports whether the reference passed everything: no scenario failed or
// was skipped (but for a broken time assumption: OtherSkips), and every
// race workload ran clean.
func (r ReferenceRun) OK() bool {
	return (r.Acceptance.Passed > 0 || len(r.Acceptance.NotYetIDs) > 0) && r.Acceptance.Failed == 0 && len(r.Acceptance.OtherSkips()) == 0 &&
		r.Race.Ran && !r.Race.Found && r.Race.Checks == r.raceChecks
}

// newAcceptanceResult is an empty result whose reasons can be filled.
func newAcceptanceResult() AcceptanceResult {
	return AcceptanceResult{SkipReasons: map[string]string{}, FailReasons: map[string]string{}}
}

// OtherSkips are a's skipped scenarios but those whose time assumption
// broke (scenario.TimeSkip): a starved machine gives no verdict there,
// which is the right answer, where any other skip of the reference means a
// scenario its own settings cannot run.
func (a AcceptanceResult) OtherSkips() []string {
	var ids []string
	for _, id := range a.SkippedIDs {
		if !strings.HasPrefix(a.SkipReasons[id], scenario.TimeSkip) {
			ids = append(ids, id)
		}
	}
	return ids
}

// Matrix is the outcome of Run.
type Matrix struct {
	Reference  []ReferenceRun
	Rows       []Row
	RaceChecks int
	Store      fakeserver.StoreKind // the store every run used
	// Profiles are the profiles the reference ran (nil: every profile).
	Profiles []profile.Name
	Elapsed  time.Duration
	// SuiteTime is, per profile, the wall time of its acceptance suites
	// (the reference's and its faults'), summed: what each profile costs
	// the matrix, which runs several suites at once.
	SuiteTime map[profile.Name]time.Duration
	// Overload is the starvation the matrix ran under ("" none).
	Overload string
}

// OK reports whether the reference passed every run and every fault was
// caught as expected.
func (m *Matrix) OK() bool {
	for _, r := range m.Reference {
		if !r.OK() {
			return false
		}
	}
	for _, r := range m.Rows {
		if !r.OK() {
			return false
		}
	}
	return !m.Complete() || len(m.Toothless()) == 0
}

// Toothless are the scenarios that pass against the reference and against
// every fault: checks no fault has shown able to fail. It is only
// meaningful when every fault ran (see Complete).
func (m *Matrix) Toothless() []string {
	if len(m.Reference) == 0 {
		return nil
	}
	failed := map[string]bool{}
	for _, r := range m.Rows {
		for _, id := range r.Acceptance.FailedIDs {
			failed[id] = true
		}
	}
	var out []string
	for _, id := range m.Reference[0].Acceptance.PassedIDs {
		if !failed[id] {
			out = append(out, id)
		}
	}
	return out
}

// Complete reports whether the matrix covers every fault of the profiles
// it ran (not a FAULTS selection).
func (m *Matrix) Complete() bool {
	for _, f := range faults.All() {
		if m.Profiles != nil && !slices.Contains(m.Profiles, profileOf(f.Profile)) {
			continue
		}
		if !slices.ContainsFunc(m.Rows, func(r Row) bool { return r.Fault == f.Name }) {
			return false
		}
	}
	return true
}

// Survivors are the faults no detector caught.
func (m *Matrix) Survivors() []fault.Name {
	var out []fault.Name
	for _, r := range m.Rows {
		if !r.Caught() && !r.Expectation.Pending() {
			out = append(out, r.Fault)
		}
	}
	return out
}
