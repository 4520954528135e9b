package profile

import (
	"github.com/rlspec/rlspec/model"
)

// The profiles of profiles.md.
const (
	PRD         Name = "prd"
	SlidingLog  Name = "sliding-log"
	FixedWindow Name = "fixed-window"
	TokenBucket Name = "token-bucket"
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
)

// httpSettings are what every profile but the PRD takes: the PRD's target
// contract fixes its key, method, dialect and body.
var httpSettings = []string{SettingKey, SettingKeyFormat, SettingMethod, SettingDialect, SettingLimitedBody,
	SettingResetFormat, SettingPrefix, SettingStatus}

// userHeader keys the generic profiles' clients by default (spec/002's
// staff id).
const userHeader = "header:X-User-ID"

// registry is the one list of profiles, in the order PROFILE=all runs
// them; never written after initialisation.
var registry = []Profile{
	{
		Name: PRD, Seed: "spec/001 (+000)",
		Algorithm: "fixed window opened by a bucket's first request; idempotent replays; flag",
		Defaults: Defaults{Key: "body:device_bucket", Method: "POST", Dialect: "x-ratelimit", ResetFormat: "unix",
			LimitedBody: "/error=rate_limited", Features: []Feature{FailClosed}},
		Design: func(p Params) (model.Model, error) { return model.NewPRD(p.Limit, p.Window) },
	},
	{
		Name: SlidingLog, Seed: "spec/002; spec/003 sliding_window",
		Algorithm: "at most N allowed in any window of length W",
		Defaults: Defaults{Key: userHeader, Method: "GET", Dialect: "auto",
			LimitedBody: "/error/code=RATE_LIMITED"},
		Takes:  httpSettings,
		Design: func(p Params) (model.Model, error) { return model.NewSlidingLog(p.Limit, p.Window) },
	},
	{
		Name: FixedWindow, Seed: "spec/003 fixed_window; spec/004",
		Algorithm: "at most N allowed per window; windows aligned to the epoch (003) or opened by the first request (004)",
		Defaults:  Defaults{Key: userHeader, Method: "GET", Dialect: "auto", LimitedBody: "none", Align: AlignEpoch},
		Takes:     append(clone(httpSettings), SettingWindowAlign),
		Extra:     []Feature{AnonymousOpen},
		Design:    fixedWindow,
	},
	{
		Name: TokenBucket, Seed: "spec/003 token_bucket; spec/000 gradual refill",
		Algorithm: "bucket of B tokens, refilled continuously at R tokens/s (GCRA: B is the burst)",
		Defaults:  Defaults{Key: userHeader, Method: "GET", Dialect: "auto", LimitedBody: "none"},
		Takes:     append(clone(httpSettings), SettingBurst, SettingRate),
		Design:    func(p Params) (model.Model, error) { return model.NewTokenBucket(p.Burst, p.Rate) },
	},
}

// fixedWindow is the fixed window of p's alignment: on the epoch's grid,
// or opened by the first request (the PRD's rule).
func fixedWindow(p Params) (model.Model, error) {
	if p.Align == AlignFirstRequest {
		return model.NewPRD(p.Limit, p.Window)
	}
	return model.NewEpoch(p.Limit, p.Window)
}

func clone(s []string) []string { return append([]string(nil), s...) }
