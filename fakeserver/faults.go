package fakeserver

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rlspec/rlspec/reference"
)

// Fault names one deliberate defect of the server, each a realistic bug that
// breaks one clause of the target contract. The empty Fault is the correct
// reference.
type Fault string

// The faults. Keep names stable: self-test reports and reproductions use them.
const (
	FaultNone              Fault = ""
	FaultCheckThenAct      Fault = "check-then-act"
	FaultReplaySpends      Fault = "replay-spends"
	FaultConcurrentReplays Fault = "concurrent-replays"
	FaultReplayIgnoresBody Fault = "replay-ignores-body"
	FaultNoHeaders429      Fault = "no-headers-429"
	FaultOffByOne          Fault = "off-by-one"
	FaultNoReset           Fault = "no-reset"
	FaultResetKeepsReset   Fault = "reset-keeps-reset"
	FaultResetRace         Fault = "reset-race"
	Fault429PushesWindow   Fault = "429-pushes-window"
	FaultSlidingReset      Fault = "sliding-reset"
	FaultNoIPFallback      Fault = "no-ip-fallback"
	FaultInvalidBucketKey  Fault = "invalid-bucket-key"
	FaultTrustXFF          Fault = "trust-xff"
	FaultFlagIgnored       Fault = "flag-ignored"
	FaultNoHeadersFlagOff  Fault = "no-headers-flag-off"
	FaultProcessCache      Fault = "process-cache"
	FaultNoRetryAfter      Fault = "no-retry-after"
	FaultBadInput500       Fault = "bad-input-500"
	FaultNoHeadersFallback Fault = "no-headers-ip-fallback"
)

// FaultInfo describes a fault: the contract clause it breaks and how.
type FaultInfo struct {
	Fault       Fault
	Clause      string
	Description string
}

var faultTable = []FaultInfo{
	{FaultCheckThenAct, "AC7/FR-4", "reads the bucket in one transaction and writes the absolute result in another: concurrent requests oversell"},
	{FaultReplaySpends, "AC6/FR-6", "an identical replay returns the cached response but spends a unit"},
	{FaultConcurrentReplays, "AC6/FR-6", "the replay lookup is outside the spend transaction: N concurrent identical first requests each spend"},
	{FaultReplayIgnoresBody, "AC6/FR-6", "the same Idempotency-Key with a different body gets the cached response"},
	{FaultNoHeaders429, "FR-7/AC3", "429 responses carry no X-RateLimit-* headers"},
	{FaultOffByOne, "AC1/AC2", "X-RateLimit-Remaining is one too high (the value before the spend)"},
	{FaultNoReset, "AC4/FR-5", "the window never resets: an exhausted bucket stays exhausted"},
	{FaultResetKeepsReset, "AC4/FR-5", "the reset refills the quota but does not move reset_utc, so Reset stays in the past"},
	{FaultResetRace, "AC4/FR-5", "the expiry check runs outside the transaction: requests racing at the boundary each refill"},
	{Fault429PushesWindow, "AC3/FR-3", "a 429 moves reset_utc to now + window, so rejected clients never get back in"},
	{FaultSlidingReset, "AC3/FR-7", "X-RateLimit-Reset is recomputed as now + window on every response"},
	{FaultNoIPFallback, "AC5/FR-2", "a request without device_bucket is keyed by one global bucket shared by every client"},
	{FaultInvalidBucketKey, "AC9/FR-2", "any string device_bucket, valid or not, is used as the key"},
	{FaultTrustXFF, "AC5/FR-2", "X-Forwarded-For is trusted from any peer (its left-most address is the key)"},
	{FaultFlagIgnored, "AC8/FR-8", "BMTC_RATE_LIMIT_ENABLED=false is ignored: the limit is enforced anyway"},
	{FaultNoHeadersFlagOff, "AC8/FR-7", "with the flag off no X-RateLimit-* headers are sent"},
	{FaultProcessCache, "AC7/FR-4", "a per-process in-memory quota cache: right with one replica, oversells with several sharing one file"},
	{FaultNoRetryAfter, "AC3", "429 responses carry no Retry-After"},
	{FaultBadInput500, "extended", "malformed JSON is answered 500"},
	{FaultNoHeadersFallback, "FR-7/AC5", "responses keyed by the IP fallback carry no X-RateLimit-* headers (set only when the body names a device)"},
}

// Faults lists every fault with its clause, in a stable order.
func Faults() []FaultInfo {
	out := make([]FaultInfo, len(faultTable))
	copy(out, faultTable)
	return out
}

// ParseFault accepts "" or "none" (the reference) and every name of Faults.
func ParseFault(s string) (Fault, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "none" {
		return FaultNone, nil
	}
	for _, f := range faultTable {
		if string(f.Fault) == s {
			return f.Fault, nil
		}
	}
	names := make([]string, len(faultTable))
	for i, f := range faultTable {
		names[i] = string(f.Fault)
	}
	sort.Strings(names)
	return "", fmt.Errorf("unknown fault %q (known: %s)", s, strings.Join(names, ", "))
}

// String is the fault's name, "none" for the reference.
func (f Fault) String() string {
	if f == FaultNone {
		return "none"
	}
	return string(f)
}

// bugs maps the faults that live in the store.
func (f Fault) bugs() reference.Bugs {
	var b reference.Bugs
	switch f {
	case FaultCheckThenAct:
		b.CheckThenAct = true
	case FaultReplaySpends:
		b.ReplaySpends = true
	case FaultConcurrentReplays:
		b.ConcurrentReplays = true
	case FaultReplayIgnoresBody:
		b.ReplayIgnoresBody = true
	case FaultNoReset:
		b.NoReset = true
	case FaultResetKeepsReset:
		b.ResetKeepsReset = true
	case FaultResetRace:
		b.ResetRace = true
	case Fault429PushesWindow:
		b.LimitedPushesWindow = true
	case FaultProcessCache:
		b.ProcessCache = true
	}
	return b
}
