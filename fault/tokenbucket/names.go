package tokenbucket

import "github.com/rlspec/rlspec/fault"

// The names of this package's faults, each registered in fault/faults.
// Keep them stable: self-test reports and reproductions use them.

// TBBinaryRefill is spec/000's "binary reset" (Refill Strategy, line 169;
// refill_if_needed, lines 176-205) at the profile's period B/R: the bucket
// is filled to B once a whole period has passed since its last refill, and
// gets nothing back before — no gradual refill.
const TBBinaryRefill fault.Name = "tb-binary-refill"

// TBKeyIgnored keys every request by its client address, ignoring
// X-User-ID: users behind one address share a bucket.
const TBKeyIgnored fault.Name = "tb-key-ignored"

// TBAnonymousShared keys every request without X-User-ID by one bucket
// shared by all keyless clients.
const TBAnonymousShared fault.Name = "tb-anonymous-shared"

// TBLimitFromRemaining is spec/003's middleware (line 871) in front of its
// token bucket: X-RateLimit-Limit = result.Remaining+1, so Limit is B only
// on a full bucket's first request.
const TBLimitFromRemaining fault.Name = "tb-limit-from-remaining"

// TBLostUpdate is a non-atomic read-modify-write of the token count
// (spec/003 reads request_count, computes, and writes the count it
// computed back with an upsert: under READ COMMITTED, or across
// replicas, requests that read the same count each spend the same token).
// Deterministic: a key's count read at one instant is what every request
// of that key reads while they come less than raceWindow apart, as if they
// had all read it before any of them wrote — a slow machine stretches the
// race instead of ending it.
const TBLostUpdate fault.Name = "tb-lost-update"

// TBRetryAfterTruncated is spec/003's Retry-After of a refused token-bucket
// request (line 584): time.Duration(1.0/float64(config.RefillRate)) *
// time.Second converts 1/R to a Duration (nanoseconds) before scaling it,
// truncating it to whole nanoseconds first: 0 for every rate of 2/s or more.
const TBRetryAfterTruncated fault.Name = "tb-retry-after-truncated"

// TBUncapped refills without the cap: spec/003's
// tokens = min(config.BurstSize, tokens+tokensToAdd) (line 562) without
// the min. A key that idles long gathers more than B tokens and lets a
// burst beyond B + R·Δt through.
const TBUncapped fault.Name = "tb-uncapped"

// TBWholeSecondRefill is spec/003's tokenBucketCheck refill (line 561):
// tokensToAdd := int(timeSinceRefill.Seconds()) * config.RefillRate, with
// last_request_at set to now on every update (updateTokenCount, line 573).
// A client sending more often than once a second never earns a token back:
// a steady client below the rate is refused.
const TBWholeSecondRefill fault.Name = "tb-whole-second-refill"
