// Package scenario is rlspec's scenario engine: what every scenario of
// every design shares, whatever clause it checks.
//
// Each scenario gets one fresh State (Initializer, or Run without godog):
// its deadline (MAX_WAIT + 60s), its clients, and every exchange it sent,
// recorded with its send and receive times (Send, Fire, Record). Step sets
// (StepSet) build their own state around it and register their steps on a
// Stepper. A check that rests on time (one window, two samples far enough
// apart) records an assumption (Assume); when the scenario ends the
// assumptions are proved from the recorded times, and a scenario whose
// assumption broke is run once more on a fresh State, then SKIPPED if it
// breaks again, so no verdict rests on a broken assumption. A wait longer
// than MAX_WAIT skips with the reason; one cut by the scenario's deadline
// "could not decide" (a skip, not a failure); against Env.Ager a wait ages
// the key's stored window instead.
//
// A step that finds the target breaking a clause returns a *Violation; a
// failure while setting a scenario up is a Precondition; every failure
// gets its root cause (Attribute hooks, else the failed check); a step
// that cannot check its clause returns Skip. The verdict of each scenario
// (ScenarioResult) goes to Env.Recorder.
package scenario
