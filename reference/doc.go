// Package reference is rlspec's golden rate limiter, against which every
// other part of rlspec is checked: a model.Model (the policy: the PRD's
// fixed window, or the flag off) on a Store (the state: the adapters in
// packages sqlite and postgres), with time from a Clock.
//
// # Semantics (the target contract's reading of the PRD)
//
// Decide runs one request in one Store transaction (Store.Update):
//
//   - the idempotency lookup: a replay (same key, same body SHA-256) returns
//     the stored status and body and spends nothing; the same key with a
//     different body gets KeyReused (HTTP 422) and changes nothing. Both
//     carry the key's current headers (a look, model.Request{Cost: 0}).
//     Idempotency keys are global, not per bucket. Only allowed (200)
//     responses are recorded; records older than the retention are ignored;
//   - the model's step on the bucket's stored state (check, spend, reset),
//     writing the next state when the model says so;
//   - for an allowed request, the ingest row and the idempotency record.
//
// Because the lookup, the step and the writes share one transaction, N
// concurrent identical first requests spend one unit, and racers at a
// window's boundary refill it once. A Store that cannot get its lock in
// time fails with ErrBusy; the caller answers 503, never an allow.
//
// # Bucket ids
//
// The caller (fakeserver) passes the canonical bucket id: a valid
// device_bucket (64 hex characters) lower-cased, otherwise "ip:" and the
// client address.
//
// # Retention
//
// Cleanup deletes buckets whose window ended more than the retention (24h)
// ago, and idempotency records and ingest rows older than the retention.
package reference
