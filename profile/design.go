package profile

import (
	"fmt"
	"slices"
	"time"

	"github.com/rlspec/rlspec/bound"
	"github.com/rlspec/rlspec/model"
)

// Refill is how a design gives spent quota back, and with it what the
// design is sized by: N per W (RL_LIMIT, RL_WINDOW) for the windows, a
// bucket's B and R (RL_BURST, RL_RATE) for the rates.
type Refill int

// The ways quota comes back.
const (
	// RefillWindow: the whole of N, when the key's window of W ends (the
	// PRD, a fixed window).
	RefillWindow Refill = iota + 1
	// RefillSliding: as requests leave the last W (a sliding log, and the
	// sliding-window counter's weighted estimate of it).
	RefillSliding
	// RefillRate: one at a time at R (a token bucket, a leaky bucket's
	// queue).
	RefillRate
)

// The target contract's settings a design of the windows is sized by.
const (
	SettingLimit  = "RL_LIMIT"
	SettingWindow = "RL_WINDOW"
)

// Size is N and W of a quick run: what the embedded reference serves
// where RL_LIMIT and RL_WINDOW are not given, every clause decidable
// within seconds (issue 27: the contract's 500 per hour made SL-2 send 501
// requests and SL-4 wait an hour).
type Size struct {
	Limit  int
	Window time.Duration
}

// quick is the Size of most designs.
var quick = Size{Limit: 5, Window: 3 * time.Second}

// Answered is one key's answered requests, as the race hunter checks them
// against a design's bounds (Profile.Bounds).
type Answered struct {
	// Events are the key's answered requests: decision times in
	// [Send, Recv], each allowed or refused.
	Events []bound.Event
	// Complete: no request of the key went unanswered. Over-blocking is
	// judged only then: an unanswered request may have been allowed.
	Complete bool
	Limit    int
	Window   time.Duration
	Align    Align
	// Tolerance widens each decision time (a server's whole seconds).
	Tolerance time.Duration
	// Model is the design's model the history ran against (penalties
	// unwrapped): a bucket's B and R are read from it.
	Model model.Model
}

// SizedByRate reports whether p is sized by RL_BURST and RL_RATE (a
// bucket's B and R) rather than RL_LIMIT and RL_WINDOW.
func (p Profile) SizedByRate() bool { return p.Refill == RefillRate }

// Sizing prints the settings ps sizes p by, for descriptions:
// "RL_LIMIT=5, RL_WINDOW=3s" or "RL_BURST=5, RL_RATE=2".
func (p Profile) Sizing(ps Params) string {
	if p.SizedByRate() {
		return fmt.Sprintf("%s=%d, %s=%g", SettingBurst, ps.Burst, SettingRate, ps.Rate)
	}
	return fmt.Sprintf("%s=%d, %s=%s", SettingLimit, ps.Limit, SettingWindow, ps.Window)
}

// Label names p served with ps in descriptions: its name, and where its
// entry says so how it is served ("fixed-window epoch").
func (p Profile) Label(ps Params) string {
	if p.label == nil {
		return string(p.Name)
	}
	return p.label(ps)
}

// TakesAlign reports whether p takes WINDOW_ALIGN=a ("" is its default).
func (p Profile) TakesAlign(a Align) bool {
	return p.TakesSetting(SettingWindowAlign) && (a == "" || slices.Contains(p.Aligns, a))
}

// ReadsAlign reports whether p's scenarios not tagged @align: read
// WINDOW_ALIGN=a; those of a design that takes no alignment read any.
func (p Profile) ReadsAlign(a Align) bool { return !slices.Contains(p.Unread, a) }

// limitQuota is the quota of a design of the windows: N.
func limitQuota(ps Params) int { return ps.Limit }

// atLimit sizes a design of the windows to quota q: N = q.
func atLimit(ps Params, q int) Params {
	ps.Limit = q
	return ps
}
