package steps

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlspec/rlspec/target"
)

// Violation is a step's verdict that the target breaks a clause: what the
// contract expects, what came back, and the exchanges that show it.
type Violation struct {
	Clause   string // e.g. "AC3 / FR-3"
	Check    string // what was checked, one short phrase
	Expected string
	Actual   string
	Evidence []*target.Exchange
}

func (v *Violation) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: expected %s; got %s", v.Clause, v.Check, v.Expected, v.Actual)
	if n := len(v.Evidence); n > 0 {
		fmt.Fprintf(&b, "\n  request: %s\n  response: %s", v.Evidence[n-1].Curl(), v.Evidence[n-1].Summary())
	}
	return b.String()
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
	ID        string   // stable id from the @id: tag, e.g. RL-AC1-01
	Name      string   // scenario name (outline rows included)
	Feature   string   // feature file
	Clauses   []string // clause tags without '@': AC1, FR-7, extended
	Status    Status
	Reason    string     // failure or skip message
	Violation *Violation // set when a step found a violation
	Exchanges []*target.Exchange
	Duration  time.Duration
}
