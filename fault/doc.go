// Package fault is the seam of rlspec's deliberate defects of the reference
// server: the Fault type (its Name, the clauses it breaks, the detectors
// that must catch it, which the self-test matrix reads, and how it wraps a
// correct part of the server, fakeserver.Wrap: the model, the store, the
// keyer or the HTTP handler), the stable names of the faults designs share (names.go),
// and the wrappers and faults several designs share (wrap_*.go, the lost
// update, stale reads, memory-only quota and per-process cache). A fault's
// Wrap is mostly one constructor of this package around its own logic:
// Replace or EditStep (the model), Intercept, EditHeaders or EditQuota
// (the handler), Rekey (the keyer), WrapTx or CheckThenAct (the store). The faults
// themselves live in one package per design and are listed in the one
// registry, package fault/faults. A faulty server is the reference minus
// one thing; the reference itself has no fault branches.
//
// To add a fault: declare its Name in its design's package (names.go
// there), add one file to that package with a function returning its
// Fault, and list that function in fault/faults/registry.go.
package fault
