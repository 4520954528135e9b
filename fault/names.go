package fault

// The names of the faults, by design. Keep names stable: self-test reports
// and reproductions use them. Each is registered in fault/faults.

// The PRD (profile prd): fault/prd.

// AuthSpends spends a unit of a request's bucket before refusing it for its
// credentials.
const AuthSpends Name = "auth-spends"

// BadInput500 answers a body that is not a ride with 500.
const BadInput500 Name = "bad-input-500"

// CheckThenAct reads the bucket outside the transaction that writes it.
const CheckThenAct Name = "check-then-act"

// ConcurrentReplays looks idempotency keys up outside the spend transaction.
const ConcurrentReplays Name = "concurrent-replays"

// FailOpen allows requests while the store is unavailable: a decision
// whose transaction fails with ErrBusy or ErrUnavailable is made again on
// an empty bucket that is never stored (spec/004's fail-open, which the
// PRD's fail-closed FAIL-1 forbids).
const FailOpen Name = "fail-open"

// FlagIgnored enforces the limit with the flag off.
const FlagIgnored Name = "flag-ignored"

// InvalidBucketKey keys by any non-empty device_bucket string.
const InvalidBucketKey Name = "invalid-bucket-key"

// NoHeaders429 drops the rate-limit headers from 429 responses.
const NoHeaders429 Name = "no-headers-429"

// NoHeadersFlagOff sends no rate-limit headers while the flag is off.
const NoHeadersFlagOff Name = "no-headers-flag-off"

// NoHeadersFallback drops the rate-limit headers of requests keyed by
// address.
const NoHeadersFallback Name = "no-headers-ip-fallback"

// NoIPFallback keys every request without a valid device by one bucket.
const NoIPFallback Name = "no-ip-fallback"

// NoReset never opens a new window once a key has one.
const NoReset Name = "no-reset"

// NoRetryAfter drops Retry-After from 429 responses.
const NoRetryAfter Name = "no-retry-after"

// OffByOne reports Remaining from before the spend.
const OffByOne Name = "off-by-one"

// PushesWindow429 moves the window's end on every refusal.
const PushesWindow429 Name = "429-pushes-window"

// ReplayIgnoresBody takes any record of a key for a replay.
const ReplayIgnoresBody Name = "replay-ignores-body"

// ReplaySpends spends a unit on every look, so identical replays spend.
const ReplaySpends Name = "replay-spends"

// ResetKeepsReset refills an expired window but keeps its old end.
const ResetKeepsReset Name = "reset-keeps-reset"

// ResetRace decides a window's expiry on a read outside the transaction.
const ResetRace Name = "reset-race"

// SlidingReset reports Reset as now + window on every response.
const SlidingReset Name = "sliding-reset"

// TrustXFF keys by the left-most X-Forwarded-For address from any peer.
const TrustXFF Name = "trust-xff"

// The sliding log and its features (bypass, tiers, IETF headers): fault/slidinglog.

// BypassSpends lets a bypass identity through but records its requests
// against the key first (the limiter's checkAndRecord runs before the role
// check): the normal identity of the same key finds its quota spent.
const BypassSpends Name = "bypass-spends"

// IETFResetTimestamp writes RateLimit's t as the unix second the window
// resets (X-RateLimit-Reset's value) instead of the seconds until then, the
// usual mistake when the IETF fields are added beside the X- headers.
const IETFResetTimestamp Name = "ietf-reset-timestamp"

// SLCheckThenRecord is spec/002's checkAndRecord: check() counts the
// entries, then record() inserts, in separate statements with no
// transaction around them, so concurrent requests all see the same count.
const SLCheckThenRecord Name = "sl-check-then-record"

// SLKeyIgnored keys every request by its client address, ignoring
// X-User-ID: users behind one address share a quota.
const SLKeyIgnored Name = "sl-key-ignored"

// SLAnonymousShared keys every request without X-User-ID by one bucket
// shared by all clients.
const SLAnonymousShared Name = "sl-anonymous-shared"

// SLRefusedRecorded records refused requests in the log too (a
// checkAndRecord that calls record() whatever check() said): a client that
// keeps retrying is never let through again.
const SLRefusedRecorded Name = "sl-refused-recorded"

// SLResetNow is spec/002's allowed result: resetAt = windowStart +
// windowMs/1000 with windowStart = now − windowMs/1000, which is now.
const SLResetNow Name = "sl-reset-now"

// SLRetryAfterWindow answers every 429 with Retry-After = W (spec/002's
// fallback when no oldest entry is found), however soon the oldest allowed
// request leaves the window.
const SLRetryAfterWindow Name = "sl-retry-after-window"

// SLRetryAfterShort answers every 429 with Retry-After: 1, however long
// the oldest allowed request stays in the window.
const SLRetryAfterShort Name = "sl-retry-after-short"

// SLSameSecond is spec/002's storage: rate_limit_entries has
// UNIQUE(key, timestamp) and record() runs INSERT OR REPLACE with
// Math.floor(Date.now() / 1000), so requests of one key in the same second
// are one entry.
const SLSameSecond Name = "sl-same-second-merge"

// SLWeightedCounter serves a sliding-window counter (profiles.md's
// sliding-window-counter on the epoch's grid: e = p·(1 − (t − s)/W) + c)
// as sliding-log: a burst just before a grid window ends is followed, just
// after, by more allowed requests than any window of W may hold.
const SLWeightedCounter Name = "sl-weighted-counter"

// TierSharedCount stores every tier's count under the key alone (spec/002's
// getRateLimitKey without the category): each tier applies its own limit to
// one shared log, so spending in one tier spends in all.
const TierSharedCount Name = "tier-shared-count"

// The fixed window: fault/fixedwindow.

// FWBody answers a 429 with spec/003's body, {"error": "Rate limit
// exceeded", …}, where LIMITED_BODY expects spec/002's error code.
const FWBody Name = "fw-body"

// FWBoundaryRace decides a window's expiry on a read outside the
// transaction: requests racing at the boundary each open a new window.
const FWBoundaryRace Name = "fw-boundary-race"

// FWGridDrift is one grid for all keys (WINDOW_ALIGN=grid) whose phase
// drifts: each window lasts W + 1 s (a timer re-armed after the work it
// triggers), so the k-th window ends k seconds after the grid learnt from
// the first Reset says — fresh allowances come late (FW-3) and Reset
// moves off the grid (FW-5).
const FWGridDrift Name = "fw-grid-drift"

// FWGridFirstRequest is FWKeyGrid the other way round: windows on the
// key's grid are claimed (WINDOW_ALIGN=key-grid) but each window is opened
// by the first request after the previous one ended. After an idle gap
// that is not a multiple of W the window starts at the request, so the
// grid's next window brings no fresh allowances when it should (FW-3) and
// two first-request windows put up to 2N inside one grid window (FW-1).
const FWGridFirstRequest Name = "fw-grid-first-request"

// FWKeyGrid claims windows opened by the first request
// (WINDOW_ALIGN=first-request, spec/004) but keeps a grid of W anchored at
// the key's first-ever request: after an idle gap that is not a multiple
// of W, the next window still starts on that grid (dialects.md's
// key-grid), so 2N can be allowed within much less than W.
const FWKeyGrid Name = "fw-key-grid"

// FWLimitFromRemaining is spec/003's middleware:
// w.Header().Set("X-RateLimit-Limit", fmt.Sprintf("%d", result.Remaining+1)).
const FWLimitFromRemaining Name = "fw-limit-from-remaining"

// FWOneShort refuses the N-th request of a window (a count compared with
// >= N − 1, or a counter that starts at 1) while announcing Limit = N:
// over-blocking that an "at most N" check alone never sees, as it holds on
// a run that allowed too little. The checks of exactly N catch it: the next
// window's N fresh allowances (FW-3-01) and N + k concurrent requests on a
// fresh key (FW-4-01).
const FWOneShort Name = "fw-one-short"

// FWRefusalMovesWindow ends a spent window W after its latest refusal (an
// expiry set again on every request, refused ones included): a client that
// keeps retrying while refused never gets its next window.
const FWRefusalMovesWindow Name = "fw-refusal-moves-window"

// FWFirstRequestWindow claims epoch windows (WINDOW_ALIGN=epoch, spec/003)
// but opens each window at the key's first request, as spec/004 does.
const FWFirstRequestWindow Name = "fw-first-request-window"

// FWInsertRace is spec/004's UPDATE-then-INSERT without the
// unique_violation retry (spec/003 likewise): the first requests of a key
// race their own insert and each is let through.
const FWInsertRace Name = "fw-insert-race"

// FWOffByOne lets N+1 requests through per window (a count compared with
// > after it was incremented, or >= before).
const FWOffByOne Name = "fw-off-by-one"

// FWAnonymousShared keys every request without the key by one bucket.
const FWAnonymousShared Name = "fw-anonymous-shared"

// The token bucket: fault/tokenbucket.

// TBBinaryRefill is spec/000's "binary reset" (Refill Strategy, line 169;
// refill_if_needed, lines 176-205) at the profile's period B/R: the bucket
// is filled to B once a whole period has passed since its last refill, and
// gets nothing back before — no gradual refill.
const TBBinaryRefill Name = "tb-binary-refill"

// TBKeyIgnored keys every request by its client address, ignoring
// X-User-ID: users behind one address share a bucket.
const TBKeyIgnored Name = "tb-key-ignored"

// TBAnonymousShared keys every request without X-User-ID by one bucket
// shared by all keyless clients.
const TBAnonymousShared Name = "tb-anonymous-shared"

// TBLimitFromRemaining is spec/003's middleware (line 871) in front of its
// token bucket: X-RateLimit-Limit = result.Remaining+1, so Limit is B only
// on a full bucket's first request.
const TBLimitFromRemaining Name = "tb-limit-from-remaining"

// TBLostUpdate is a non-atomic read-modify-write of the token count
// (spec/003 reads request_count, computes, and writes the count it
// computed back with an upsert: under READ COMMITTED, or across
// replicas, requests that read the same count each spend the same token).
// Deterministic: a key's count read at one instant is what every request
// of that key reads while they come less than raceWindow apart, as if they
// had all read it before any of them wrote — a slow machine stretches the
// race instead of ending it.
const TBLostUpdate Name = "tb-lost-update"

// TBRetryAfterTruncated is spec/003's Retry-After of a refused token-bucket
// request (line 584): time.Duration(1.0/float64(config.RefillRate)) *
// time.Second converts 1/R to a Duration (nanoseconds) before scaling it,
// truncating it to whole nanoseconds first: 0 for every rate of 2/s or more.
const TBRetryAfterTruncated Name = "tb-retry-after-truncated"

// TBUncapped refills without the cap: spec/003's
// tokens = min(config.BurstSize, tokens+tokensToAdd) (line 562) without
// the min. A key that idles long gathers more than B tokens and lets a
// burst beyond B + R·Δt through.
const TBUncapped Name = "tb-uncapped"

// TBWholeSecondRefill is spec/003's tokenBucketCheck refill (line 561):
// tokensToAdd := int(timeSinceRefill.Seconds()) * config.RefillRate, with
// last_request_at set to now on every update (updateTokenCount, line 573).
// A client sending more often than once a second never earns a token back:
// a steady client below the rate is refused.
const TBWholeSecondRefill Name = "tb-whole-second-refill"
