// Package embedded starts rlspec's reference server in-process, on
// loopback, for the commands that were given no target (cmd/rlspec) and for
// the self-test matrix. It is the one place that builds a reference: the
// verifiers (acceptance, racehunt, loadgen) receive what they test — URLs,
// an optional state-access URL (TARGET_DB) and an optional clock — and never
// import the reference.
//
// StartPair is the acceptance suite's target: an enabled instance and its
// flag-off twin. StartQuotas is the race hunter's: for each quota, servers
// sharing one store on one fake clock. Either runs on SQLite (a temporary
// file) or, with Options.Store = postgres, on databases of its own on a
// throwaway PostgreSQL cluster (internal/pgcluster): a cluster of the set's
// own that Close removes, or one that many sets share (StartPostgres,
// Options.Postgres; the self-test's matrix), whose databases Close drops.
package embedded
