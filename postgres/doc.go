// Package postgres is the reference's store on PostgreSQL (pgx and
// pgxpool): the same reference.Store the SQLite adapter implements, for
// several reference instances sharing one limit (spec/003's multi-instance
// deployment, profiles.md MI-1).
//
// Tables follow the PRD's layout (FR-1): rate_limit_buckets(bucket_id,
// quota_remaining, reset_utc) plus idempotency_keys and ride_ingest, so
// TARGET_DB=postgres://… seeds and ages them exactly as it does on SQLite.
//
// Isolation is READ COMMITTED with many connections. Each Update is one
// transaction; the check-and-spend is atomic because a transaction takes a
// transaction-scoped advisory lock on the key before it reads it
// (pg_advisory_xact_lock): one lock class for idempotency keys, taken
// first, one for buckets, taken second, so two transactions never wait on
// each other in a cycle, and a key that has no row yet is locked as surely
// as one that has. Lock waits longer than the busy timeout end in
// reference.ErrBusy (the server answers 503, never an allow).
//
// The common Update — read one bucket, write it, ingest a ride — does not
// wait for that transaction's two round trips: it is sent as one statement
// that takes the same lock and writes only if the row still holds the state
// fn decided on (optimistic.go). A row that changed sends fn to the locked
// path, so the two paths decide alike; reference/storetest's shared suite
// runs them interleaved on one database.
//
// Beside the engine's ceiling — pgbench replaying the very statements this
// path sent, prepared, with the same arguments (BenchmarkVsPgbench, every
// design) — the store's own work per decision is the same for every
// design: one statement whose text is built once per shape (state columns, ride
// rows), one round trip, about 40 µs of the Go client's CPU, most of it
// pgx's encoding, socket write and read. Designs differ only in the sizes
// of the state sent (a sliding log of 80 times is ~1 KB twice), which
// pgbench sends too. With 10 callers the reference keeps up with pgbench;
// with one caller a decision is nothing but its round trip, and the Go
// client's (the goroutine parked on the socket and woken by the
// netpoller, pgx's timer armed around each write) takes longer than
// libpq's blocking poll, which is where a ratio below 0.9 comes from: the
// same statements sent from bare pgx sit as far below pgbench. On a quiet
// machine the designs' medians at one caller are 0.93–1.03 (the sliding
// log lowest: its 80 times decoded, stepped and encoded, 3 µs), at 10
// callers 1.39–1.63 (README); on 2 cores shared with other work, where one
// round's ratio ranges from 0.3 to 3×, they were 0.62–0.92 at one caller
// (bare pgx 0.66–0.88).
package postgres
