package steps

import "github.com/rlspec/rlspec/steps/scenario"

// The engine's types and constructors, under the names the acceptance
// runner and the self-test use.
type (
	Env            = scenario.Env
	Client         = scenario.Client
	Recorder       = scenario.Recorder
	StoreControl   = scenario.StoreControl
	Restarter      = scenario.Restarter
	Violation      = scenario.Violation
	Status         = scenario.Status
	ScenarioResult = scenario.ScenarioResult
)

// Verdicts.
const (
	Passed  = scenario.Passed
	Failed  = scenario.Failed
	Skipped = scenario.Skipped
)

// NewEnv returns an Env for cfg against url (and disabled, may be empty).
var NewEnv = scenario.NewEnv
