// Package steps holds the godog step definitions of rlspec's features. They
// drive any target over HTTP through the small interfaces declared here
// (Sender, Client, StateSeeder, Recorder): every scenario gets one fresh
// state struct, fresh random device buckets and its own client address, so
// scenarios are independent and may run concurrently.
//
// A step that finds the target breaking a clause returns a *Violation (what
// the contract expects, what came back, and the exchanges that show it); a
// step that cannot check its clause with the given settings returns an error
// wrapping godog.ErrSkip with the reason.
package steps
