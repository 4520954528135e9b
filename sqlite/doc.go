// Package sqlite is the reference's Store on SQLite (modernc.org/sqlite,
// pure Go).
//
// # Schema
//
// Embedded, versioned migrations (migrations/NNNN_name.up.sql and .down.sql,
// version in PRAGMA user_version) create:
//
//   - rate_limit_buckets(bucket_id TEXT PRIMARY KEY, quota_remaining INTEGER
//     NOT NULL, reset_utc INTEGER NOT NULL) STRICT — PRD FR-1, reset_utc in
//     unix seconds. A harness seeding state through TARGET_DB may run
//     UPDATE rate_limit_buckets SET quota_remaining=?, reset_utc=? WHERE
//     bucket_id=? after the bucket's first request;
//   - idempotency_keys(idem_key, body_sha256, status, response, created_utc);
//   - ride_ingest — the stand-in for segment_stats; it holds no bucket id or
//     address (PRD §6).
//
// The database runs in WAL mode with synchronous=FULL and a busy timeout.
//
// # Concurrency and durability
//
// One writer connection per Store groups the Updates pending at that
// moment (up to WithMaxBatch) into one BEGIN IMMEDIATE … COMMIT, so a batch
// costs one fsync; each caller is answered only after the commit. The
// callers commit in turn — the one that finds nobody committing commits
// the queue on its own goroutine, then hands the turn to the oldest caller
// still waiting — so a lone caller's Update wakes no other thread. Updates in a
// batch run one after another inside the transaction, so the batch is
// serialisable. If one Update of a batch fails, the batch is rolled back and
// its Updates are rerun one transaction each. Several processes may share
// one file: BEGIN IMMEDIATE takes SQLite's write lock, waiting up to the
// busy timeout; past it the Update fails with reference.ErrBusy. View reads
// one snapshot of committed state in a read transaction on a pool
// connection, beside the writer.
//
// # Speed
//
// One durable caller is bounded by the disk's syncs: one fsync per
// decision (modernc's build has no fdatasync) for the two pages a
// decision writes, the bucket's and the ride's. Beside the floor
// (reference.BenchmarkVsFsyncFloor; README, "On PostgreSQL") it reaches
// 0.72-0.79x on a quiet machine: a decision takes 70-79 us of CPU where
// the floor's write and sync take 50. Most of the rest is SQLite's WAL
// protocol (six fcntl locks and four writes a commit, where the floor
// makes one write) and the engine's CPU. The locks are kept on purpose:
// taking them away (locking_mode=EXCLUSIVE) gave 0.79-0.87x, but then
// one process alone could open the file, and several reference
// processes share one (multi-instance), beside a pool of readers.
package sqlite
