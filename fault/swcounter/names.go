package swcounter

import "github.com/rlspec/rlspec/fault"

// The names of this package's faults, each registered in fault/faults.
// Keep them stable: self-test reports and reproductions use them.

// SWCCountsRefused counts refused requests in the window's count without
// claiming counts-refused (as some proxies do): a client that kept
// retrying while refused weighs on the next window, and a request that
// finds e ≤ N − 2 among the allowed ones is refused (SWC-3).
const SWCCountsRefused fault.Name = "swc-counts-refused"

// SWCFixedWindow is a sliding-window counter that forgets the previous
// window: a fixed window in disguise. Just after a window's start it allows
// N again although the previous window's N still weigh almost fully, so a
// request finds e ≥ N + 1 (SWC-2).
const SWCFixedWindow fault.Name = "swc-fixed-window"

// SWCLostUpdate is a non-atomic update of the window counter: the counts
// read, the estimate computed, the incremented count written back, with no
// lock or serialisable transaction between — requests of a key that read
// the same count each add one to it, and more than N are allowed on a
// fresh key (SWC-4) and in one window (SWC-1). Deterministic as
// TBLostUpdate: a key's state read once is what its requests read while
// they come less than 200 ms apart.
const SWCLostUpdate fault.Name = "swc-lost-update"

// SWCWeightsWrong weights the previous window the wrong way round:
// p·(t − s)/W + c in place of p·(1 − (t − s)/W) + c, so the previous
// window weighs least just after it ended, when it should weigh most — a
// request early in a window finds e ≥ N + 1 and is allowed (SWC-2); late
// in a window requests that fit are refused (SWC-3).
const SWCWeightsWrong fault.Name = "swc-weights-wrong"

// SWCRetryAfterShort answers every refusal of the sliding-window counter
// with Retry-After: 1, however long the estimate stays at N: a client
// that waits for it is refused again (SWC-5).
const SWCRetryAfterShort fault.Name = "swc-retry-after-short"

// SWCResetWindowStart answers Reset with the start of the current grid
// window — the instant a per-window row is keyed by — instead of its end
// (SWC-6).
const SWCResetWindowStart fault.Name = "swc-reset-window-start"

// SWCKeyIgnored keys every request of the sliding-window counter by its
// client address, ignoring X-User-ID: users behind one address share a
// counter (SWC-7).
const SWCKeyIgnored fault.Name = "swc-key-ignored"

// SWCAnonymousShared keys every request without X-User-ID by one counter
// shared by all keyless clients (SWC-7).
const SWCAnonymousShared fault.Name = "swc-anonymous-shared"

// SWCKeyGridEpoch claims the key's grid (WINDOW_ALIGN=key-grid, as
// Fiber's sliding window keeps it) but keeps its windows on the epoch's:
// a key whose first request is half a window off the epoch's grid is told
// a Reset the epoch's boundary, not its own window's end (SWC-6).
const SWCKeyGridEpoch fault.Name = "swc-key-grid-epoch"

// SWCLimitFromRemaining is spec/003's middleware (line 871) in front of a
// sliding-window counter: X-RateLimit-Limit = result.Remaining+1, so
// Limit is N only on a fresh key's first request (SWC-6).
const SWCLimitFromRemaining fault.Name = "swc-limit-from-remaining"
