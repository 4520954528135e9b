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

// prdClauses are the prd's clauses.
var prdClauses = []Clause{
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
}
