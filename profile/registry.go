package profile

// The profiles of profiles.md.
const (
	PRD         Name = "prd"
	SlidingLog  Name = "sliding-log"
	FixedWindow Name = "fixed-window"
	TokenBucket Name = "token-bucket"
	// SlidingWindowCounter is the weighted two-window counter.
	SlidingWindowCounter Name = "sliding-window-counter"
	// LeakyBucket is the per-key queue drained at R (request shaping).
	LeakyBucket Name = "leaky-bucket"
	// Every is PROFILE=all: every profile the target claims, one after
	// another. It names no profile of its own.
	Every Name = "all"
)

// The settings a profile may take beyond the target contract's, by
// variable name.
const (
	SettingKey         = "KEY"
	SettingKeyFormat   = "KEY_FORMAT"
	SettingMethod      = "TARGET_METHOD"
	SettingWindowAlign = "WINDOW_ALIGN"
	SettingDialect     = "DIALECT"
	SettingLimitedBody = "LIMITED_BODY"
	SettingResetFormat = "RESET_FORMAT"
	SettingPrefix      = "HEADER_PREFIX"
	SettingStatus      = "LIMITED_STATUS"
	SettingBurst       = "RL_BURST"
	SettingRate        = "RL_RATE"
	// SettingDelay and SettingLBMode are the leaky bucket's RL_DELAY and
	// LB_MODE (delay or nodelay); the reference server reads them as
	// RL_DELAY and RL_LB_MODE.
	SettingDelay  = "RL_DELAY"
	SettingLBMode = "LB_MODE"
)

// httpSettings are what every profile but the PRD takes: the PRD's target
// contract fixes its key, method, dialect and body.
var httpSettings = []string{SettingKey, SettingKeyFormat, SettingMethod, SettingDialect, SettingLimitedBody,
	SettingResetFormat, SettingPrefix, SettingStatus}

// userHeader keys the generic profiles' clients by default (spec/002's
// staff id).
const userHeader = "header:X-User-ID"

// registry is the one list of profiles, in the order PROFILE=all runs
// them, each design's entry in its own file; never written after
// initialisation.
var registry = []Profile{prdEntry, slidingLogEntry, fixedWindowEntry, tokenBucketEntry, windowCounterEntry, leakyBucketEntry}

func clone(s []string) []string { return append([]string(nil), s...) }
