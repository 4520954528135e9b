package fault

// The names of the faults of the sliding-window counter, the leaky bucket
// and penalties (the rest are in names.go); the same rules hold.

// The sliding-window counter: fault/swcounter.

// SWCCountsRefused counts refused requests in the window's count without
// claiming counts-refused (as some proxies do): a client that kept
// retrying while refused weighs on the next window, and a request that
// finds e ≤ N − 2 among the allowed ones is refused (SWC-3).
const SWCCountsRefused Name = "swc-counts-refused"

// SWCFixedWindow is a sliding-window counter that forgets the previous
// window: a fixed window in disguise. Just after a window's start it allows
// N again although the previous window's N still weigh almost fully, so a
// request finds e ≥ N + 1 (SWC-2).
const SWCFixedWindow Name = "swc-fixed-window"

// SWCLostUpdate is a non-atomic update of the window counter: the counts
// read, the estimate computed, the incremented count written back, with no
// lock or serialisable transaction between — requests of a key that read
// the same count each add one to it, and more than N are allowed on a
// fresh key (SWC-4) and in one window (SWC-1). Deterministic as
// TBLostUpdate: a key's state read once is what its requests read while
// they come less than 200 ms apart.
const SWCLostUpdate Name = "swc-lost-update"

// SWCWeightsWrong weights the previous window the wrong way round:
// p·(t − s)/W + c in place of p·(1 − (t − s)/W) + c, so the previous
// window weighs least just after it ended, when it should weigh most — a
// request early in a window finds e ≥ N + 1 and is allowed (SWC-2); late
// in a window requests that fit are refused (SWC-3).
const SWCWeightsWrong Name = "swc-weights-wrong"

// SWCRetryAfterShort answers every refusal of the sliding-window counter
// with Retry-After: 1, however long the estimate stays at N: a client
// that waits for it is refused again (SWC-5).
const SWCRetryAfterShort Name = "swc-retry-after-short"

// SWCResetWindowStart answers Reset with the start of the current grid
// window — the instant a per-window row is keyed by — instead of its end
// (SWC-6).
const SWCResetWindowStart Name = "swc-reset-window-start"

// SWCKeyIgnored keys every request of the sliding-window counter by its
// client address, ignoring X-User-ID: users behind one address share a
// counter (SWC-7).
const SWCKeyIgnored Name = "swc-key-ignored"

// SWCAnonymousShared keys every request without X-User-ID by one counter
// shared by all keyless clients (SWC-7).
const SWCAnonymousShared Name = "swc-anonymous-shared"

// SWCKeyGridEpoch claims the key's grid (WINDOW_ALIGN=key-grid, as
// Fiber's sliding window keeps it) but keeps its windows on the epoch's:
// a key whose first request is half a window off the epoch's grid is told
// a Reset the epoch's boundary, not its own window's end (SWC-6).
const SWCKeyGridEpoch Name = "swc-key-grid-epoch"

// The leaky bucket: fault/leakybucket.

// LBFixedSleep sleeps a fixed time instead of spacing the queue: every
// request that finds others queued is held one interval (1/R), whatever
// its place, so a burst leaves as a burst one interval later — faster than
// R (LB-1) — and the queue's state still fills as if spaced.
const LBFixedSleep Name = "lb-fixed-sleep"

// LBLostUpdate is a non-atomic update of the queue: the instant the queue
// is empty read, the request's turn computed from it and the next instant
// written back, not atomically — requests of a key that read the same
// instant get the same turn, so more than B + 1 are allowed at once
// (LB-2) and their answers leave faster than R (LB-1). Deterministic as
// TBLostUpdate.
const LBLostUpdate Name = "lb-lost-update"

// LBNoDelayFrees answers queued requests at once (LB_MODE=nodelay) but
// frees their places at once too, not at R: the queue never fills, every
// request is allowed and answers leave as fast as they come (LB-1; under
// nodelay the token-bucket bound with B + 1 and R). Served and claimed as
// nodelay, where LB-1's bound is 1 + B + R·Δt.
const LBNoDelayFrees Name = "lb-nodelay-frees"

// LBNoDelayIgnored delays queued requests their turn although
// LB_MODE=nodelay is claimed (a limit_req without its nodelay): a burst's
// queued requests wait i/R instead of being answered at once (LB-3 under
// nodelay, where D = B).
const LBNoDelayIgnored Name = "lb-nodelay-ignored"

// LBDelayIgnored answers queued requests at once (nodelay, places still
// freed at R) although LB_MODE=delay is claimed: a burst leaves as a
// burst (LB-1 with D = 0).
const LBDelayIgnored Name = "lb-delay-ignored"

// LBRefusal503 refuses with 503, nginx limit_req_status's default, where
// LIMITED_STATUS (429) is claimed (LB-5).
const LBRefusal503 Name = "lb-refusal-503"

// LBOneQueue serves every key from one queue: a request of one key waits
// behind the queued requests of every other key (LB-4), and the i-th of a
// key's burst is answered later than i/R when others are queued (LB-3).
const LBOneQueue Name = "lb-one-queue"

// LBRefusesWaiters refuses the requests that should have waited: a request
// that finds the one in service busy is refused instead of queued (a queue
// of no places), so of B + 1 + k concurrent requests on an idle key only
// one is allowed (LB-2). Limit still says B + 1. Its scenario is still to
// be written: nothing detects it yet but TestFaultsBreakTheirClause.
const LBRefusesWaiters Name = "lb-refuses-waiters"

// LBUnbounded queues without bound: a request that finds B requests
// waiting is queued too, never refused, so B + 1 + k concurrent requests
// on an idle key are all allowed (LB-2). Limit still says B + 1. Its
// scenario is still to be written: nothing detects it yet but
// TestFaultsBreakTheirClause.
const LBUnbounded Name = "lb-unbounded"

// Penalties (sliding-log feature): fault/penalties.

// PNNeverForgets keeps counting violations however old the last one is
// (spec/003's applyPenalty without its 24 h reset): a key that violated
// once a day ago starts at a higher tier.
const PNNeverForgets Name = "pn-never-forgets"

// PNLostViolation reads a key's violation count before its transaction
// and writes it back from that read (spec/003's applyPenalty: a SELECT of
// the count, then an upsert of count + 1, not atomically): violations
// racing on a key each count from the same read, so concurrent violations
// count once and the escalation they owe is lost. Deterministic here: a
// key's count read once is what its requests read while they come less
// than 200 ms apart.
const PNLostViolation Name = "pn-lost-violation"

// PNNoEscalation never goes past the first tier: every violation from the
// first tier's count on gets its duration (a tier lookup that stops at the
// first match instead of taking the largest).
const PNNoEscalation Name = "pn-no-escalation"

// PNRefusedCounted counts requests refused under a penalty as violations:
// each one raises the count and starts its tier's penalty afresh from now,
// as an applyPenalty called on every 429 would (spec/003 calls it only for
// the algorithm's). A client that retries under a penalty is never
// released.
const PNRefusedCounted Name = "pn-refused-counted"

// PNRefusedEscalates counts requests refused under a penalty as
// violations without restarting the penalty (an increment of the count on
// every 429, the penalty's end left alone): the penalty itself looks
// right, but the key's next violation after it takes a later tier than
// its count of algorithm violations gives.
const PNRefusedEscalates Name = "pn-refused-escalates"

// PNReleaseLate keeps a key refused for 3 s after the penalty_until it
// announced (an expiry compared in another unit or clock than the one
// reported): the key is not served by the algorithm when the penalty ends.
const PNReleaseLate Name = "pn-release-late"

// PNSpends runs the algorithm on requests refused under a penalty and
// keeps what they spent (the penalty check placed after the algorithm's
// record): a client retrying under a penalty has used its quota by the
// time the penalty ends.
const PNSpends Name = "pn-spends"

// Shared by several designs: the quota kept in process memory
// (MemoryQuotaOf) and a per-process cache (ProcessCacheOf).

// MemoryQuota keeps the quota in process memory only; SLMemoryQuota,
// FWMemoryQuota and TBMemoryQuota do the same in the other profiles.
const (
	MemoryQuota   Name = "memory-quota"
	SLMemoryQuota Name = "sl-memory-quota"
	FWMemoryQuota Name = "fw-memory-quota"
	TBMemoryQuota Name = "tb-memory-quota"
)

// ProcessCache keeps bucket state in a per-process cache; SLProcessCache,
// FWProcessCache and TBProcessCache do the same in the other profiles.
const (
	ProcessCache   Name = "process-cache"
	SLProcessCache Name = "sl-process-cache"
	FWProcessCache Name = "fw-process-cache"
	TBProcessCache Name = "tb-process-cache"
)
