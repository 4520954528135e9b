// Package acceptance runs rlspec's Gherkin features (package features) with
// godog in strict mode against a target, writes junit.xml, cucumber.json and
// report.html, and turns the verdicts into an exit status: 0 every scenario
// that ran passed, 1 at least one failed (or, strict, was skipped), 2 the
// suite could not run.
//
// Without a target URL it starts the embedded reference (package
// fakeserver) twice — enabled and flag-off — and seeds state through its
// database, so window and exhaustion scenarios run fast with any window.
//
// Before the suite starts, package preflight checks the settings against
// the target; package tagexpr reads TAGS.
package acceptance
