package ops

import (
	"github.com/rlspec/rlspec/clause"
	"github.com/rlspec/rlspec/steps/keyed"
	"github.com/rlspec/rlspec/steps/prd"
	"github.com/rlspec/rlspec/steps/scenario"
)

// state is one scenario's operations steps: they drive a device bucket
// (prd) or a key (keyed), whichever the scenario's design uses, and say
// which world each step reads.
type state struct {
	*scenario.State
	key *keyed.World
	prd *prd.World

	others    []scenario.Client // clients of the instances after the first (MI-1)
	tierRuns  []tierRun         // feature tiers: what each endpoint tier answered the key
	storeDown bool              // it took the store away and has not brought it back
}

// Register registers the operations steps (fail modes, persistence,
// multi-instance, bypass, tiers) on the scenario's two worlds: a scenario
// that takes the store away runs alone and gets the store back when it
// ends.
func Register(w *keyed.World, p *prd.World, sc scenario.Stepper) {
	s := &state{State: w.State, key: w, prd: p}
	w.RunAloneIf(takesStore)
	w.OnFinish(s.restoreStore)
	for _, register := range []func(scenario.Stepper){
		s.registerFailMode, s.registerPersistence, s.registerBypass, s.registerTiers, s.registerMultiInstance,
	} {
		register(sc)
	}
}

// ChargeMI1 charges a violation of a multi-instance scenario to MI-1 too:
// the engine's Attribute hook, registered before the PRD's, which may make
// the violation a precondition.
func ChargeMI1(v *scenario.Violation, tags clause.Refs) {
	if tags.Has(clause.MI1) {
		chargeMI1(v)
	}
}
