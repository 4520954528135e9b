// Package probe looks at a rate-limited HTTP endpoint with a stated budget
// of requests, never more, and says what it saw: the statuses, the dialect
// its answers are written in (read through package dialect), the limit and
// window or burst and rate as far as the answers show them, the refusal's
// status and body, whether the key or the client address keys clients, and
// the settings of an `rlspec acceptance` run that fit what it saw, with what
// it could not tell and how long it would take to tell it. A probe never
// gives a verdict: its findings are settings to try, not a conformance
// result. Time is a parameter (Clock); the target is an interface (Target),
// and each experiment is a Strategy on a Session that counts the budget.
//
// Telling one design from another by its answers is the probe's own job:
// its guess (Session.design), its experiments and the settings it
// suggests for each name the designs, as the registry's entries cannot.
package probe
