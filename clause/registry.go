package clause

// The PRD (spec/001 with the target contract's reading).
const (
	AC1 ID = "AC1"
	AC2 ID = "AC2"
	AC3 ID = "AC3"
	AC4 ID = "AC4"
	AC5 ID = "AC5"
	AC6 ID = "AC6"
	AC7 ID = "AC7"
	AC8 ID = "AC8"
	AC9 ID = "AC9"
	FR1 ID = "FR-1"
	FR2 ID = "FR-2"
	FR3 ID = "FR-3"
	FR4 ID = "FR-4"
	FR5 ID = "FR-5"
	FR6 ID = "FR-6"
	FR7 ID = "FR-7"
	FR8 ID = "FR-8"
	// Extended marks checks beyond the PRD's text (bad input, Reset stability,
	// X-Forwarded-For from untrusted peers).
	Extended ID = "extended"
)

// sliding-log (profiles.md).
const (
	SL1  ID = "SL-1"
	SL2  ID = "SL-2"
	SL3  ID = "SL-3"
	SL4  ID = "SL-4"
	SL5  ID = "SL-5"
	SL6  ID = "SL-6"
	SL7  ID = "SL-7"
	SL8  ID = "SL-8"
	SL9  ID = "SL-9"
	SL10 ID = "SL-10"
)

// fixed-window (profiles.md).
const (
	FW1 ID = "FW-1"
	FW2 ID = "FW-2"
	FW3 ID = "FW-3"
	FW4 ID = "FW-4"
	FW5 ID = "FW-5"
	FW6 ID = "FW-6"
	FW7 ID = "FW-7"
)

// token-bucket (profiles.md).
const (
	TB1 ID = "TB-1"
	TB2 ID = "TB-2"
	TB3 ID = "TB-3"
	TB4 ID = "TB-4"
	TB5 ID = "TB-5"
	TB6 ID = "TB-6"
	TB7 ID = "TB-7"
	TB8 ID = "TB-8"
)

// sliding-window-counter (profiles.md).
const (
	SWC1 ID = "SWC-1"
	SWC2 ID = "SWC-2"
	SWC3 ID = "SWC-3"
	SWC4 ID = "SWC-4"
	SWC5 ID = "SWC-5"
	SWC6 ID = "SWC-6"
	SWC7 ID = "SWC-7"
)

// leaky-bucket (profiles.md).
const (
	LB1 ID = "LB-1"
	LB2 ID = "LB-2"
	LB3 ID = "LB-3"
	LB4 ID = "LB-4"
	LB5 ID = "LB-5"
)

// penalties and the features of any profile (profiles.md).
const (
	PN1   ID = "PN-1"
	PN2   ID = "PN-2"
	PN3   ID = "PN-3"
	PN4   ID = "PN-4"
	PN5   ID = "PN-5"
	FAIL1 ID = "FAIL-1"
	FAIL2 ID = "FAIL-2"
	MI1   ID = "MI-1"
	PS1   ID = "PS-1"
	IETF1 ID = "IETF-1"
)

const (
	spec001  = "spec/001"
	contract = "target-contract.md"
	profiles = "profiles.md"
)

// registry is the one table of clauses; never written after initialisation.
var registry = []Clause{
	{AC1, "prd", spec001, "GIVEN clean bucket WHEN POST /v1/ride_summary THEN X-RateLimit-Remaining=499 AND 200 OK"},
	{AC2, "prd", spec001, "GIVEN quota_remaining=1 WHEN POST /v1/ride_summary with new Idempotency-Key THEN 200 OK AND Remaining=0"},
	{AC3, "prd", spec001, `GIVEN quota_remaining=0 WHEN POST /v1/ride_summary with new key THEN 429 error="rate_limited" AND Remaining=0`},
	{AC4, "prd", spec001, "GIVEN reset_utc in past WHEN POST /v1/ride_summary THEN bucket reset to 500, Remaining=499, Reset updated to +3600s"},
	{AC5, "prd", spec001, "GIVEN device_bucket missing from body WHEN POST THEN fallback to ip:<addr> and enforce quota"},
	{AC6, "prd", spec001, "GIVEN Idempotency-Key replay with same body WHEN POST THEN return cached 200 AND Remaining unchanged"},
	{AC7, "prd", spec001, "GIVEN N concurrent POSTs to same bucket WHEN executed within 1s THEN all see consistent Remaining (no oversell)"},
	{AC8, "prd", spec001, "GIVEN feature flag disabled WHEN POST THEN skip quota check, return 200 with Remaining=999 (sentinel)"},
	{AC9, "prd", spec001, "GIVEN invalid device_bucket (not SHA256 hex) WHEN POST THEN treat as missing, use IP fallback"},
	{FR1, "prd", spec001, "System SHALL maintain a rate_limit_buckets table with columns: bucket_id TEXT PRIMARY KEY, quota_remaining INT, reset_utc INT (unix epoch)."},
	{FR2, "prd", spec001, "System SHALL extract device_bucket from request body; if absent or invalid, derive key as ip:<X-Forwarded-For> (or remote_addr fallback)."},
	{FR3, "prd", spec001, `System SHALL check remaining quota BEFORE updating segment_stats or rejection_log. If quota_remaining <= 0, return 429 with error="rate_limited" and no state changes.`},
	{FR4, "prd", spec001, "System SHALL decrement quota_remaining by 1 in the same transaction as ride ingest; no race conditions under concurrent POSTs to same bucket."},
	{FR5, "prd", spec001, "System SHALL reset quota_remaining to 500 when reset_utc <= current_timestamp. Next reset window computed as now + 3600 seconds."},
	{FR6, "prd", spec001, "System SHALL NOT deduct quota on replay of identical (Idempotency-Key, body_sha256). Quota spent only on first submission; cached response returned for replays."},
	{FR7, "prd", spec001, "System SHALL include X-RateLimit-Limit: 500, X-RateLimit-Remaining: <N>, X-RateLimit-Reset: <unix-sec> on all POST responses (including 429)."},
	{FR8, "prd", spec001, "System SHALL respect BMTC_RATE_LIMIT_ENABLED env var (default=true); when false, skip quota check (headers still returned for client compatibility)."},
	{Extended, "prd", contract, "Checks beyond the PRD's text: bad input gets a 4xx JSON error and never adds or restores quota; Reset is stable within a window; X-Forwarded-For from an untrusted peer never changes the key."},

	{SL1, "sliding-log", profiles, "For one key, no window of length W holds more than N allowed requests."},
	{SL2, "sliding-log", profiles, "N+1 requests of one key sent within one second: exactly N allowed."},
	{SL3, "sliding-log", profiles, "N+k concurrent requests on a fresh key: exactly N allowed."},
	{SL4, "sliding-log", profiles, "A key whose allowed requests in the last W + 1 s number fewer than N is allowed. After a 429, a request sent once Retry-After + 1 s has passed is allowed."},
	{SL5, "sliding-log", profiles, "Requests refused with 429 do not move the time at which the key is allowed again."},
	{SL6, "sliding-log", profiles, "Status 429, Retry-After integer seconds in [1, W], body matching LIMITED_BODY; a retry value in the body equals Retry-After."},
	{SL7, "sliding-log", profiles, "Limit = N on every response; Remaining = N − allowed requests in the current window; Reset = t_oldest + W (±1 s)."},
	{SL8, "sliding-log", profiles, "Keys are independent; a request without the key's header is keyed by client address."},
	{SL9, "sliding-log", profiles, "Each tier enforces its own N and W; spending in one tier spends nothing in another."},
	{SL10, "sliding-log", profiles, "A bypass identity gets N + 5 requests allowed and spends nothing of a normal identity's quota."},

	{FW1, "fixed-window", profiles, "For one key, at most N allowed in each window."},
	{FW2, "fixed-window", profiles, "In any span of length W at most 2N (epoch) or 2N − 1 (first-request) allowed."},
	{FW3, "fixed-window", profiles, "The next window gives N fresh allowances; requests racing at the boundary get at most N."},
	{FW4, "fixed-window", profiles, "N+k concurrent requests on a fresh key get exactly N."},
	{FW5, "fixed-window", profiles, "Limit = N (never derived from Remaining); Remaining = N − allowed so far in the window; Reset = the window's end; Retry-After on a 429 = seconds to the window's end (±1)."},
	{FW6, "fixed-window", profiles, "Status 429 with LIMITED_BODY (spec/004: status only)."},
	{FW7, "fixed-window", profiles, "A request without the key is keyed by client address, or with anonymous-open always allowed."},

	{TB1, "token-bucket", profiles, "For one key, allowed requests in any interval [t1, t2] ≤ B + R·(t2 − t1) + 1."},
	{TB2, "token-bucket", profiles, "A fresh key gets B allowed in a row, the next one 429."},
	{TB3, "token-bucket", profiles, "A drained key that idles B/R + 1 s gets B allowed again; after idling k/R + 1 s (k < B) at least k."},
	{TB4, "token-bucket", profiles, "A client sending at 0.9·R for 10/R seconds after draining the bucket is never refused."},
	{TB5, "token-bucket", profiles, "B + k concurrent requests on a fresh key: exactly B."},
	{TB6, "token-bucket", profiles, "Retry-After integer seconds in [1, ⌈1/R⌉ + 1]; a request sent after it is allowed."},
	{TB7, "token-bucket", profiles, "Limit = B; Remaining = whole tokens left after this request; Reset unix seconds in [now, now + ⌈B/R⌉ + 1]."},
	{TB8, "token-bucket", profiles, "Keys have independent buckets; a request without the key is keyed by client address, never by one bucket shared by every keyless client."},

	{SWC1, "sliding-window-counter", profiles, "At most N allowed in any one grid window."},
	{SWC2, "sliding-window-counter", profiles, "No allowed request finds e ≥ N + 1 for every placement of the decision times."},
	{SWC3, "sliding-window-counter", profiles, "A request that finds e ≤ N − 2 for every placement is allowed."},
	{SWC4, "sliding-window-counter", profiles, "N + k concurrent requests on a fresh key: exactly N."},
	{SWC5, "sliding-window-counter", profiles, "LIMITED_STATUS, LIMITED_BODY; a Retry-After (where sent) is in [1, W] and a request sent after it is allowed."},
	{SWC6, "sliding-window-counter", profiles, "Limit = N; Remaining = N − ⌈e⌉ (±1); Reset = the end of the current grid window or the instant e falls below N."},
	{SWC7, "sliding-window-counter", profiles, "Keys are independent; a request without the key's header is keyed by client address (as SL-8)."},

	{LB1, "leaky-bucket", profiles, "For one key, allowed responses leave no faster than R: over any span of their decision times [t1, t2], count ≤ 1 + D + R·(t2 − t1) (+1 tolerance)."},
	{LB2, "leaky-bucket", profiles, "B + 1 + k concurrent requests on an idle key: k refused, each within 1 s of being sent; B + 1 allowed."},
	{LB3, "leaky-bucket", profiles, "On an idle key, the i-th of a burst of queued requests is answered within i/R + 1 s of its send."},
	{LB4, "leaky-bucket", profiles, "One key's queue delays no other key's requests."},
	{LB5, "leaky-bucket", profiles, "LIMITED_STATUS, LIMITED_BODY, Retry-After where sent."},

	{PN1, "any", profiles, "From the violation until penalty_until, every request of the key gets 429 with penalty_active: true, penalty_until and Retry-After ≈ penalty_until − now."},
	{PN2, "any", profiles, "After penalty_until (+1 s) the key is served by the algorithm again."},
	{PN3, "any", profiles, "Successive violations move through the tiers in order; counts below the first tier give no penalty."},
	{PN4, "any", profiles, "Requests refused during a penalty neither spend quota nor count as violations."},
	{PN5, "any", profiles, "A violation count older than 24 h starts again at 1."},
	{FAIL1, "any", profiles, "While the store is down no request is allowed: 503 (or 429) with Retry-After, never 200; after it is back, quota spent before is still spent."},
	{FAIL2, "any", profiles, "While the store is down requests are allowed (200) and none gets a 5xx."},
	{MI1, "any", profiles, "With several instances on one store the profile's bounds hold over the requests to all instances together."},
	{PS1, "any", profiles, "Quota spent before the container is restarted is still spent after it."},
	{IETF1, "any", profiles, "RateLimit-Policy and RateLimit are valid structured-field lists; q and w match N and W; r follows Remaining and t follows Reset − now."},
}
