package scenario

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/httpclient"
)

// Violation is a step's verdict that the target breaks a clause: what the
// contract expects, what came back, and the exchanges that show it.
type Violation struct {
	Clause   clause.Refs // the clauses broken, most specific first
	Check    string      // what was checked, one short phrase
	Expected string
	Actual   string
	Evidence []*httpclient.Exchange
	// Precondition is set when the scenario failed setting itself up (a
	// Given step, or the first request of a fresh bucket), before it reached
	// the clause it checks: the failure is not charged to Clause.
	Precondition bool
	// Cause is the root cause in one phrase, the same in every scenario it
	// breaks, so that a run's failures group by it.
	Cause string
}

// Violate is the verdict that the target breaks refs: check is what was
// checked, evidence the exchanges that show it.
func Violate(refs clause.Refs, check, expected, actual string, evidence ...*httpclient.Exchange) *Violation {
	return &Violation{Clause: refs, Check: check, Expected: expected, Actual: actual, Evidence: evidence}
}

func (v *Violation) Error() string {
	var b strings.Builder
	b.WriteString(v.Headline())
	if n := len(v.Evidence); n > 0 {
		fmt.Fprintf(&b, "\n  request: %s\n  response: %s", v.Evidence[n-1].Curl(), v.Evidence[n-1].Summary())
	}
	return b.String()
}

// Headline is the violation in one line: "AC3 / FR-3: 429 body: expected
// …; got …", or "precondition: …" for a failed set-up.
func (v *Violation) Headline() string {
	if v.Precondition {
		return fmt.Sprintf("precondition: %s (%s): expected %s; got %s", v.Check, v.Clause, v.Expected, v.Actual)
	}
	return fmt.Sprintf("%s: %s: expected %s; got %s", v.Clause, v.Check, v.Expected, v.Actual)
}

// Charge is what the violation is charged to: its clauses, or
// "precondition" when the scenario never reached them.
func (v *Violation) Charge() string {
	if v.Precondition {
		return "precondition"
	}
	return v.Clause.String()
}

// Status is a scenario's verdict.
type Status string

// Verdicts.
const (
	Passed  Status = "PASS"
	Failed  Status = "FAIL"
	Skipped Status = "SKIPPED"
)

// ScenarioResult is one scenario's verdict and what shows it.
type ScenarioResult struct {
	ID      string      // stable id from the @id: tag, e.g. AC1-01
	Name    string      // scenario name (outline rows included)
	Feature string      // feature file
	Clauses []clause.ID // the scenario's clause tags: AC1, FR-7, extended
	Profile string      // the @profile: tag ("" for the PRD's scenarios)
	Status  Status
	Reason  string // failure or skip message
	Cause   string // a failure's root cause, shared by the failures it causes
	Rerun   string // why the scenario was run once more (a time assumption broke), "" if it was not
	Note    string // what a passing check measured (FW-2's largest burst), "" if nothing
	// NotClaimed is set on a scenario SKIPPED because its extended feature
	// is not claimed (FEATURES): no failure under STRICT=1.
	NotClaimed bool
	Violation  *Violation // set when a step found a violation
	Exchanges  []*httpclient.Exchange
	Duration   time.Duration
	// Steps are the scenario's step texts; FailedStep is the 1-based index
	// of the one that failed or skipped it (0: none did).
	Steps      []string
	FailedStep int
}

// NotClaimed opens the reason of a scenario skipped because the target does
// not claim its extended feature; STRICT=1 does not fail those.
const NotClaimed = "not claimed:"
