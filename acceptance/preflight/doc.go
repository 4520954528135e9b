// Package preflight checks a run's settings before the acceptance suite
// starts, each failure one sentence and exit 2 rather than a suite of
// confusing failures: the profile is one the registry holds and RL_LIMIT
// one its suite can be set up with (CheckProfile, CheckLimit), the target
// answers HTTP (Probe), and its first answer agrees with the dialect,
// limit, window and bucket settings (CheckSettings; BodyNote warns of a
// body template that cannot vary).
package preflight
