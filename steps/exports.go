package steps

import (
	"github.com/rlspec/rlspec/steps/ops"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/targetstore"
)

// The engine's types and constructors, under the names the acceptance
// runner and the self-test use.
type (
	Env            = scenario.Env
	Turns          = scenario.Turns
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

// NewTurns orders the scenarios that run alone among the others.
var NewTurns = scenario.NewTurns

// RunsAlone reports whether a scenario with these tags runs alone: it
// takes the store away or restarts the target.
var RunsAlone = ops.TakesStore

// NewEnv returns an Env for cfg against url (and disabled, may be empty).
var NewEnv = scenario.NewEnv

// NotClaimed opens the reason of a scenario skipped because the target does
// not claim its extended feature.
const NotClaimed = scenario.NotClaimed

// CommandStore takes the store away with STORE_DOWN_CMD and STORE_UP_CMD.
type CommandStore = targetstore.CommandStore

// OpenSeeder opens TARGET_DB (package targetstore).
var OpenSeeder = targetstore.OpenSeeder
