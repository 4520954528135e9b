// Package steps holds the godog step definitions of rlspec's features, on
// the scenario engine of package scenario (steps/scenario): every scenario
// gets one fresh engine State and a fresh world of steps around it, fresh
// random device buckets and its own client address, so scenarios are
// independent and may run concurrently.
//
// Steps live in one file per feature area, each registering its own; they
// pass typed records between them (the bucket under test, the last
// exchange, the last batch) and send through the engine. Initializer is
// what the acceptance runner hands godog; the engine's types are
// re-exported under the names the runner uses (exports.go).
package steps
