// Package reference is rlspec's golden rate limiter: the PRD's device-bucket
// quota on SQLite (modernc.org/sqlite, pure Go), against which every other
// part of rlspec is checked.
//
// # Schema
//
// Embedded, versioned migrations (migrations/NNNN_name.up.sql and .down.sql,
// version in PRAGMA user_version) create:
//
//   - rate_limit_buckets(bucket_id TEXT PRIMARY KEY, quota_remaining INTEGER
//     NOT NULL, reset_utc INTEGER NOT NULL) STRICT — PRD FR-1, reset_utc in
//     unix seconds;
//   - idempotency_keys(idem_key, body_sha256, status, response, created_utc);
//   - ride_ingest — the stand-in for segment_stats; it holds no bucket id or
//     address (PRD §6).
//
// The database runs in WAL mode with synchronous=FULL and a busy timeout.
//
// # Bucket ids
//
// The caller (fakeserver) passes the canonical bucket id: a valid
// device_bucket (exactly 64 hex characters) lower-cased and stored verbatim,
// otherwise "ip:" followed by the client address (netip.Addr.String()). A
// harness seeding state through TARGET_DB may therefore run
//
//	UPDATE rate_limit_buckets SET quota_remaining=?, reset_utc=? WHERE bucket_id=?
//
// after the bucket's first request.
//
// # Semantics (the target contract's reading of the PRD)
//
//   - A window starts with the bucket's first request: quota_remaining =
//     limit-1, reset_utc = now + window.
//   - While reset_utc > now each allowed request spends one unit; reset_utc
//     does not move. With quota_remaining <= 0 the answer is Limited (429)
//     and nothing is written: the window is not pushed out.
//   - When reset_utc <= now the next request refills to limit, spends one and
//     sets reset_utc = now + window. Because the check and the write share
//     one IMMEDIATE transaction, racers at the boundary refill once.
//   - The idempotency lookup, the spend, the ingest row and the idempotency
//     record share that transaction: a replay (same key, same body SHA-256)
//     returns the stored status and body and spends nothing; N concurrent
//     identical first requests spend one unit. Only allowed (200) responses
//     are recorded; a 429 is not, so a key whose first attempt was limited is
//     processed afresh. The same key with a different body gets KeyReused
//     (HTTP 422, error "idempotency_key_reused") and changes nothing.
//   - Idempotency keys are global (not per bucket): a key names one
//     submission whoever sends it.
//   - Replays and 422s carry the bucket's current headers (not the first
//     response's): Remaining as stored now, Reset the current window's end, or
//     a full quota and now+window when the bucket is absent or expired.
//   - Disabled (flag off): every request is allowed and ingested, nothing is
//     spent, Remaining is the sentinel (default 999) and Reset now+window.
//   - Retention: Cleanup deletes buckets whose window ended more than the
//     retention (24h) ago — their last request is older still — plus
//     idempotency records and ingest rows older than the retention. Expired
//     idempotency records are ignored even before Cleanup runs.
//
// # Concurrency and durability
//
// One writer goroutine per Store groups the decisions pending at that moment
// (up to WithMaxBatch) into one BEGIN IMMEDIATE … COMMIT, so a batch costs
// one fsync; each caller is answered only after the commit. Decisions in a
// batch run one after another inside the transaction, so the batch is
// serialisable. If one job of a batch fails, the batch is rolled back and its
// jobs are rerun one transaction each. Several processes may share one file:
// BEGIN IMMEDIATE takes SQLite's write lock, waiting up to the busy timeout;
// past it the decision fails with ErrBusy (HTTP 503 + Retry-After), never an
// allow.
//
// # Faults
//
// Bugs switches on deliberate defects for rlspec's self-tests; fakeserver
// maps its named faults onto them. The zero Bugs is the reference.
package reference
