// Package steps holds the godog step definitions of rlspec's features. They
// drive any target over HTTP through the small interfaces declared here
// (Sender, Client, StateSeeder, Recorder): every scenario gets one fresh
// state struct, fresh random device buckets and its own client address, so
// scenarios are independent and may run concurrently.
//
// Steps live in one file per feature area (quota, window, idempotency,
// fallback, flag, badinput, concurrency, headers), each registering its own;
// they pass typed records between them (the bucket under test, the last
// exchange, the last batch) and send through one path (send.go).
//
// A step that finds the target breaking a clause returns a *Violation (the
// clauses it breaks, what the contract expects, what came back, and the
// exchanges that show it); a failure while setting a scenario up is a
// precondition, and every failure carries its root cause (cause.go). A step
// that cannot check its clause with the given settings returns an error
// wrapping godog.ErrSkip with the reason. Checks that rest on time (one
// window, samples far enough apart at the server, a window passed) verify
// it afterwards; when it broke, the scenario is run once more and skipped if
// it breaks again (assume.go), so no verdict rests on a broken assumption.
package steps
