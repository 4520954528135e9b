package slidinglog

import "github.com/rlspec/rlspec/fault"

// The names of this package's faults, each registered in fault/faults.
// Keep them stable: self-test reports and reproductions use them.

// BypassSpendsName lets a bypass identity through but records its requests
// against the key first (the limiter's checkAndRecord runs before the role
// check): the normal identity of the same key finds its quota spent.
const BypassSpendsName fault.Name = "bypass-spends"

// IETFResetTimestamp writes RateLimit's t as the unix second the window
// resets (X-RateLimit-Reset's value) instead of the seconds until then, the
// usual mistake when the IETF fields are added beside the X- headers.
const IETFResetTimestamp fault.Name = "ietf-reset-timestamp"

// SLCheckThenRecord is spec/002's checkAndRecord: check() counts the
// entries, then record() inserts, in separate statements with no
// transaction around them, so concurrent requests all see the same count.
const SLCheckThenRecord fault.Name = "sl-check-then-record"

// SLKeyIgnored keys every request by its client address, ignoring
// X-User-ID: users behind one address share a quota.
const SLKeyIgnored fault.Name = "sl-key-ignored"

// SLAnonymousShared keys every request without X-User-ID by one bucket
// shared by all clients.
const SLAnonymousShared fault.Name = "sl-anonymous-shared"

// SLRefusedRecorded records refused requests in the log too (a
// checkAndRecord that calls record() whatever check() said): a client that
// keeps retrying is never let through again.
const SLRefusedRecorded fault.Name = "sl-refused-recorded"

// SLResetNow is spec/002's allowed result: resetAt = windowStart +
// windowMs/1000 with windowStart = now − windowMs/1000, which is now.
const SLResetNow fault.Name = "sl-reset-now"

// SLRetryAfterWindow answers every 429 with Retry-After = W (spec/002's
// fallback when no oldest entry is found), however soon the oldest allowed
// request leaves the window.
const SLRetryAfterWindow fault.Name = "sl-retry-after-window"

// SLRetryAfterShort answers every 429 with Retry-After: 1, however long
// the oldest allowed request stays in the window.
const SLRetryAfterShort fault.Name = "sl-retry-after-short"

// SLSameSecond is spec/002's storage: rate_limit_entries has
// UNIQUE(key, timestamp) and record() runs INSERT OR REPLACE with
// Math.floor(Date.now() / 1000), so requests of one key in the same second
// are one entry.
const SLSameSecond fault.Name = "sl-same-second-merge"

// SLWeightedCounter serves a sliding-window counter (profiles.md's
// sliding-window-counter on the epoch's grid: e = p·(1 − (t − s)/W) + c)
// as sliding-log: a burst just before a grid window ends is followed, just
// after, by more allowed requests than any window of W may hold.
const SLWeightedCounter fault.Name = "sl-weighted-counter"

// TierSharedCountName stores every tier's count under the key alone (spec/002's
// getRateLimitKey without the category): each tier applies its own limit to
// one shared log, so spending in one tier spends in all.
const TierSharedCountName fault.Name = "tier-shared-count"
