package penalties

import "github.com/rlspec/rlspec/fault"

// The names of this package's faults, each registered in fault/faults.
// Keep them stable: self-test reports and reproductions use them.

// PNNeverForgets keeps counting violations however old the last one is
// (spec/003's applyPenalty without its 24 h reset): a key that violated
// once a day ago starts at a higher tier.
const PNNeverForgets fault.Name = "pn-never-forgets"

// PNLostViolation reads a key's violation count before its transaction
// and writes it back from that read (spec/003's applyPenalty: a SELECT of
// the count, then an upsert of count + 1, not atomically): violations
// racing on a key each count from the same read, so concurrent violations
// count once and the escalation they owe is lost. Deterministic here: a
// key's count read once is what its requests read while they come less
// than 200 ms apart.
const PNLostViolation fault.Name = "pn-lost-violation"

// PNNoEscalation never goes past the first tier: every violation from the
// first tier's count on gets its duration (a tier lookup that stops at the
// first match instead of taking the largest).
const PNNoEscalation fault.Name = "pn-no-escalation"

// PNRefusedCounted counts requests refused under a penalty as violations:
// each one raises the count and starts its tier's penalty afresh from now,
// as an applyPenalty called on every 429 would (spec/003 calls it only for
// the algorithm's). A client that retries under a penalty is never
// released.
const PNRefusedCounted fault.Name = "pn-refused-counted"

// PNRefusedEscalates counts requests refused under a penalty as
// violations without restarting the penalty (an increment of the count on
// every 429, the penalty's end left alone): the penalty itself looks
// right, but the key's next violation after it takes a later tier than
// its count of algorithm violations gives.
const PNRefusedEscalates fault.Name = "pn-refused-escalates"

// PNReleaseLate keeps a key refused for 3 s after the penalty_until it
// announced (an expiry compared in another unit or clock than the one
// reported): the key is not served by the algorithm when the penalty ends.
const PNReleaseLate fault.Name = "pn-release-late"

// PNSpends runs the algorithm on requests refused under a penalty and
// keeps what they spent (the penalty check placed after the algorithm's
// record): a client retrying under a penalty has used its quota by the
// time the penalty ends.
const PNSpends fault.Name = "pn-spends"
