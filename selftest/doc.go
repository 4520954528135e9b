// Package selftest checks rlspec against its own reference server: the
// acceptance suite and the race properties run against the correct
// reference (everything must pass) and against every fault of
// faults.All() (every fault must be caught by the detector the
// matrix assigns to it).
//
// Expectations is the one place that knows which fault must be caught by
// which acceptance scenario and which by the race hunter: the concurrency
// faults (check-then-act, concurrent-replays, reset-race, and process-cache
// with several in-process servers on one database file) by racehunt, the
// others by the acceptance suite; a fault that declares Replicas (and the
// reference's run of its profile) gets AcceptanceReplicas instances on one
// store, so that the multi-instance scenarios (MI-1) run. Run executes the matrix and returns a
// Matrix whose Write prints it; a fault "survives" when no detector
// catches it.
package selftest
