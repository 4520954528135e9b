package leakybucket

import "github.com/rlspec/rlspec/fault"

// The names of this package's faults, each registered in fault/faults.
// Keep them stable: self-test reports and reproductions use them.

// LBFixedSleep sleeps a fixed time instead of spacing the queue: every
// request that finds others queued is held one interval (1/R), whatever
// its place, so a burst leaves as a burst one interval later — faster than
// R (LB-1) — and the queue's state still fills as if spaced.
const LBFixedSleep fault.Name = "lb-fixed-sleep"

// LBLostUpdate is a non-atomic update of the queue: the instant the queue
// is empty read, the request's turn computed from it and the next instant
// written back, not atomically — requests of a key that read the same
// instant get the same turn, so more than B + 1 are allowed at once
// (LB-2) and their answers leave faster than R (LB-1). Deterministic as
// TBLostUpdate.
const LBLostUpdate fault.Name = "lb-lost-update"

// LBNoDelayFrees answers queued requests at once (LB_MODE=nodelay) but
// frees their places at once too, not at R: the queue never fills, every
// request is allowed and answers leave as fast as they come (LB-1; under
// nodelay the token-bucket bound with B + 1 and R). Served and claimed as
// nodelay, where LB-1's bound is 1 + B + R·Δt.
const LBNoDelayFrees fault.Name = "lb-nodelay-frees"

// LBNoDelayIgnored delays queued requests their turn although
// LB_MODE=nodelay is claimed (a limit_req without its nodelay): a burst's
// queued requests wait i/R instead of being answered at once (LB-3 under
// nodelay, where D = B).
const LBNoDelayIgnored fault.Name = "lb-nodelay-ignored"

// LBDelayIgnored answers queued requests at once (nodelay, places still
// freed at R) although LB_MODE=delay is claimed: a burst leaves as a
// burst (LB-1 with D = 0).
const LBDelayIgnored fault.Name = "lb-delay-ignored"

// LBRefusal503 refuses with 503, nginx limit_req_status's default, where
// LIMITED_STATUS (429) is claimed (LB-5).
const LBRefusal503 fault.Name = "lb-refusal-503"

// LBOneQueue serves every key from one queue: a request of one key waits
// behind the queued requests of every other key (LB-4), and the i-th of a
// key's burst is answered later than i/R when others are queued (LB-3).
const LBOneQueue fault.Name = "lb-one-queue"

// LBRefusesWaiters refuses the requests that should have waited: a request
// that finds the one in service busy is refused instead of queued (a queue
// of no places), so of B + 1 + k concurrent requests on an idle key only
// one is allowed (LB-2). Limit still says B + 1.
const LBRefusesWaiters fault.Name = "lb-refuses-waiters"

// LBUnbounded queues without bound: a request that finds B requests
// waiting is queued too, never refused, so B + 1 + k concurrent requests
// on an idle key are all allowed (LB-2). Limit still says B + 1. Served
// under nodelay: in delay mode its late answers cannot be told from a
// bounded queue's decided late.
const LBUnbounded fault.Name = "lb-unbounded"
