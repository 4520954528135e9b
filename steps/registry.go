package steps

import (
	"github.com/cucumber/godog"

	"github.com/rlspec/rlspec/steps/fixedwindow"
	"github.com/rlspec/rlspec/steps/ietfheaders"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/leakybucket"
	"github.com/rlspec/rlspec/steps/ops"
	"github.com/rlspec/rlspec/steps/penalties"
	"github.com/rlspec/rlspec/steps/prd"
	"github.com/rlspec/rlspec/steps/scenario"
	"github.com/rlspec/rlspec/steps/slidinglog"
	"github.com/rlspec/rlspec/steps/swcounter"
	"github.com/rlspec/rlspec/steps/tokenbucket"
)

// Initializer returns the godog ScenarioInitializer: every scenario gets a
// fresh engine State and every step set's fresh state around it.
func Initializer(env *scenario.Env) func(*godog.ScenarioContext) {
	return scenario.Initializer(env, registerAll)
}

// registerAll makes one scenario's worlds on st (the PRD's device bucket,
// the keyed designs' key) and registers every step set on them. A new
// design's steps are one more line here.
func registerAll(st *scenario.State, sc scenario.Stepper) {
	st.Attribute(ops.ChargeMI1) // before the PRD's hook, which may make it a precondition
	bucket, key := prd.New(st), keyed.New(st)

	prd.Register(bucket, sc)
	keyed.Register(key, sc)
	slidinglog.Register(key, sc)
	fixedwindow.Register(key, sc)
	tokenbucket.Register(key, sc)
	leakybucket.Register(key, sc)
	swcounter.Register(key, sc)
	penalties.Register(key, sc)
	ietfheaders.Register(key, sc)
	ops.Register(key, bucket, sc)
}
