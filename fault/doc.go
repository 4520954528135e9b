// Package fault holds rlspec's deliberate defects of the reference server,
// one file per fault. Each is a realistic bug that breaks one clause of the
// target contract, and each declares its Name, the clauses it breaks, the
// detectors that must catch it (the self-test matrix reads them) and how it
// wraps a correct part of the server (fakeserver.Wrap): the model, the
// store, the keyer or the HTTP handler. A faulty server is the reference
// minus one thing; the reference itself has no fault branches.
//
// To add a fault: add one file declaring its Name constant and a function
// returning its Fault, and list that function in registry.go.
package fault
