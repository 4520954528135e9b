package profile

import (
	"fmt"

	"github.com/rlspec/rlspec/model"
)

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
	{
		Name: SlidingWindowCounter, Seed: "none of the seeds (spec/003 sums per-window rows); the sliding window most services and proxies build",
		Algorithm: "a two-window weighted estimate of the sliding count on a grid of W (the epoch's by default)",
		Defaults:  Defaults{Key: userHeader, Method: "GET", Dialect: "auto", LimitedBody: "none", Align: AlignEpoch},
		Takes:     append(clone(httpSettings), SettingWindowAlign),
		Extra:     []Feature{CountsRefused},
		Design:    windowCounter,
	},
	{
		Name: LeakyBucket, Seed: "none of the seeds; the classic web-server and proxy limiter (request shaping)",
		Algorithm: "a per-key queue of B drained at R requests/s: excess is delayed, not refused, until the queue is full",
		Defaults:  Defaults{Key: userHeader, Method: "GET", Dialect: "auto", LimitedBody: "none"},
		Takes:     append(clone(httpSettings), SettingBurst, SettingRate, SettingLBMode, SettingDelay),
		Design:    func(p Params) (model.Model, error) { return model.NewLeakyBucket(p.Burst, p.Rate, p.Delay, p.NoDelay) },
	},
}

// windowCounter is the sliding-window counter, counting refused requests
// when counts-refused is claimed.
// Its windows lie on the grid of p's alignment: the epoch's, the key's
// (key-grid) or one anchored at p.Anchor (grid); first-request is no grid.
func windowCounter(p Params) (model.Model, error) {
	m, err := model.NewWindowCounter(p.Limit, p.Window)
	m.CountsRefused = p.CountsRefused
	switch p.Align {
	case AlignFirstRequest:
		return nil, fmt.Errorf("window-counter model: WINDOW_ALIGN=%s: its windows lie on a grid (%s, %s or %s)", p.Align, AlignEpoch, AlignKeyGrid, AlignGrid)
	case AlignKeyGrid:
		m.KeyGrid = true
	case AlignGrid:
		m.Anchor = p.Anchor.Unix()
	}
	return m, err
}

// fixedWindow is the fixed window of p's alignment: on the epoch's grid,
// opened by the first request (the PRD's rule), on the key's own grid or
// on one grid anchored at p.Anchor.
func fixedWindow(p Params) (model.Model, error) {
	switch p.Align {
	case AlignFirstRequest:
		return model.NewPRD(p.Limit, p.Window)
	case AlignKeyGrid:
		return model.NewKeyGrid(p.Limit, p.Window)
	case AlignGrid:
		return model.NewGrid(p.Limit, p.Window, p.Anchor)
	}
	return model.NewEpoch(p.Limit, p.Window)
}

func clone(s []string) []string { return append([]string(nil), s...) }
