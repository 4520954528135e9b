// Package histcheck checks a recorded history of concurrent requests to a
// rate limiter: a History of Ops (each a request of a Kind, its exchange
// and the bounds of the target's clock while it was in flight).
//
// A Checker takes the history op by op, so that a long run need not be held
// whole: it reads each response once in the target's dialect
// (History.Answer, DIALECT=auto settled by the first answered op), keeps a
// few integers of each op filed under its key, and checks the keys apart on
// all cores. Violations are the direct checks: oversell, undersell,
// inconsistent Remaining values, replays that spend, 429s that change state
// and malformed headers for the PRD; package bound's checks for the other
// designs. Linearizable checks each key's history with porcupine against a
// sequential model: the PRD's bucket with idempotency (Model), or any
// model.Model placed at a decision time inside each request's interval
// (StepOracle), with the state sets kept small (states canonical at their
// next decision time, subsumed ones dropped). A verdict keeps the header
// and body findings apart from the algorithm's violations (SplitFindings).
//
// The history check at scale (BenchmarkCheck1M: 1,000,000 requests over
// 1,000 keys, streamed into a Checker, then Violations and Linearizable;
// figures in bench_test.go's BenchmarkCheck1M comment).
package histcheck
