package prd

import "github.com/rlspec/rlspec/fault"

// The names of this package's faults, each registered in fault/faults.
// Keep them stable: self-test reports and reproductions use them.

// AuthSpendsName spends a unit of a request's bucket before refusing it for its
// credentials.
const AuthSpendsName fault.Name = "auth-spends"

// BadInput500Name answers a body that is not a ride with 500.
const BadInput500Name fault.Name = "bad-input-500"

// CheckThenActName reads the bucket outside the transaction that writes it.
const CheckThenActName fault.Name = "check-then-act"

// ConcurrentReplaysName looks idempotency keys up outside the spend transaction.
const ConcurrentReplaysName fault.Name = "concurrent-replays"

// FailOpenName allows requests while the store is unavailable: a decision
// whose transaction fails with ErrBusy or ErrUnavailable is made again on
// an empty bucket that is never stored (spec/004's fail-open, which the
// PRD's fail-closed FAIL-1 forbids).
const FailOpenName fault.Name = "fail-open"

// FlagIgnoredName enforces the limit with the flag off.
const FlagIgnoredName fault.Name = "flag-ignored"

// InvalidBucketKeyName keys by any non-empty device_bucket string.
const InvalidBucketKeyName fault.Name = "invalid-bucket-key"

// NoHeaders429Name drops the rate-limit headers from 429 responses.
const NoHeaders429Name fault.Name = "no-headers-429"

// NoHeadersFlagOffName sends no rate-limit headers while the flag is off.
const NoHeadersFlagOffName fault.Name = "no-headers-flag-off"

// NoHeadersFallbackName drops the rate-limit headers of requests keyed by
// address.
const NoHeadersFallbackName fault.Name = "no-headers-ip-fallback"

// NoIPFallbackName keys every request without a valid device by one bucket.
const NoIPFallbackName fault.Name = "no-ip-fallback"

// NoResetName never opens a new window once a key has one.
const NoResetName fault.Name = "no-reset"

// NoRetryAfterName drops Retry-After from 429 responses.
const NoRetryAfterName fault.Name = "no-retry-after"

// OffByOneName reports Remaining from before the spend.
const OffByOneName fault.Name = "off-by-one"

// PushesWindow429Name moves the window's end on every refusal.
const PushesWindow429Name fault.Name = "429-pushes-window"

// ReplayIgnoresBodyName takes any record of a key for a replay.
const ReplayIgnoresBodyName fault.Name = "replay-ignores-body"

// ReplaySpendsName spends a unit on every look, so identical replays spend.
const ReplaySpendsName fault.Name = "replay-spends"

// ResetKeepsResetName refills an expired window but keeps its old end.
const ResetKeepsResetName fault.Name = "reset-keeps-reset"

// ResetRaceName decides a window's expiry on a read outside the transaction.
const ResetRaceName fault.Name = "reset-race"

// SlidingResetName reports Reset as now + window on every response.
const SlidingResetName fault.Name = "sliding-reset"

// TrustXFFName keys by the left-most X-Forwarded-For address from any peer.
const TrustXFFName fault.Name = "trust-xff"
