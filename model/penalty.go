package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// PenaltyMemory is how long a key's violations count (spec/003: a count
// whose last violation is older starts again at 1, PN-5).
const PenaltyMemory = 24 * time.Hour

// PenaltyTier is one `count:duration` of RL_PENALTIES: the count-th
// violation (and later ones, up to the next tier) starts a penalty of
// Duration.
type PenaltyTier struct {
	Count    int
	Duration time.Duration
}

// Penalty is a key's violation record (spec/003's rate_limit_penalties
// row): how many violations it made, when the last one was and when the
// penalty it started ends, in unix milliseconds (0: never).
type Penalty struct {
	Count int
	Last  int64
	Until int64
}

// Penalties is profiles.md's penalties (spec/003 progressive penalties)
// around any design: a violation is a request the design refuses; the v-th
// violation of a key within PenaltyMemory starts a penalty of the largest
// tier with Count ≤ v. Until the penalty ends every request of the key is
// refused with PenaltyUntil set, spends nothing and is no violation (PN-4);
// the violating response itself already carries the penalty (PN-1). After
// it, the design decides again (PN-2).
//
// The record rides in State.Penalty beside the design's own fields. A
// store may delete a key once State.Reset has passed by its retention: at
// a violation the design's Reset lies after the violation, so with the
// default 24 h retention a record is never deleted while it still counts.
type Penalties struct {
	Inner Model
	Tiers []PenaltyTier // ascending Count
}

var _ Model = Penalties{}

// Step applies the rule above.
func (p Penalties) Step(st State, req Request, now time.Time) (State, Decision) {
	rec, t := st.Penalty, now.UnixMilli()
	inner := st
	inner.Penalty = Penalty{}
	if p.Active(st, now) && req.Cost > 0 {
		_, d := p.Inner.Step(inner, Request{Cost: 0}, now)
		return st, underPenalty(d, rec.Until, t)
	}
	next, d := p.Inner.Step(inner, req, now)
	if d.Allowed || req.Cost == 0 {
		next.Penalty = rec
		return next, d
	}
	return p.Violate(st, d, now)
}

// Active reports whether st's penalty lasts past now.
func (p Penalties) Active(st State, now time.Time) bool {
	return st.Penalty.Until > now.UnixMilli()
}

// Violate records one more violation of the key whose refused decision is
// d and, when a tier applies, starts its penalty: the next state (written)
// and the decision carrying it.
func (p Penalties) Violate(st State, d Decision, now time.Time) (State, Decision) {
	t := now.UnixMilli()
	rec := st.Penalty
	if t-rec.Last > PenaltyMemory.Milliseconds() {
		rec.Count = 0
	}
	rec.Count++
	rec.Last = t
	if dur := p.Duration(rec.Count); dur > 0 {
		rec.Until = t + dur.Milliseconds()
		d = underPenalty(d, rec.Until, t)
	}
	st.Penalty = rec
	d.Write = true
	return st, d
}

// Duration is the penalty of the count-th violation: the largest tier with
// Count ≤ count, 0 below the first.
func (p Penalties) Duration(count int) time.Duration {
	var d time.Duration
	for _, tier := range p.Tiers {
		if tier.Count <= count {
			d = tier.Duration
		}
	}
	return d
}

// underPenalty is d refused until untilMs: Remaining 0, Retry-After the
// whole seconds to the penalty's end (PN-1, as spec/003's checkPenalty;
// the design may refuse longer once it ends).
func underPenalty(d Decision, untilMs, t int64) Decision {
	d.Allowed, d.Remaining = false, 0
	d.PenaltyUntil = ceilSecond(untilMs)
	d.RetryAfter = max((untilMs-t+999)/1000, 1)
	d.Reset = max(d.Reset, t/1000+d.RetryAfter)
	return d
}

// ParsePenaltyTiers reads RL_PENALTIES: `count:duration,…` with counts
// ascending from 1 and durations whole seconds of at least 1 s (a Go
// duration, or plain seconds), e.g. "1:2s,3:5s,5:10s".
func ParsePenaltyTiers(s string) ([]PenaltyTier, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("no tiers: give count:duration pairs, e.g. 1:2s,3:5s")
	}
	var tiers []PenaltyTier
	for _, part := range strings.Split(s, ",") {
		c, d, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return nil, fmt.Errorf("%q is not count:duration", part)
		}
		n, err := strconv.Atoi(strings.TrimSpace(c))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q: the count is not a positive integer", part)
		}
		dur, err := parseSeconds(strings.TrimSpace(d))
		if err != nil {
			return nil, fmt.Errorf("%q: %w", part, err)
		}
		if len(tiers) > 0 && n <= tiers[len(tiers)-1].Count {
			return nil, fmt.Errorf("%q: counts must ascend", part)
		}
		tiers = append(tiers, PenaltyTier{Count: n, Duration: dur})
	}
	return tiers, nil
}

// FormatPenaltyTiers is the RL_PENALTIES text of tiers.
func FormatPenaltyTiers(tiers []PenaltyTier) string {
	parts := make([]string, len(tiers))
	for i, t := range tiers {
		parts[i] = fmt.Sprintf("%d:%ds", t.Count, t.Duration/time.Second)
	}
	return strings.Join(parts, ",")
}

// parseSeconds reads a whole number of seconds >= 1: "5", "5s", "1m".
func parseSeconds(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if n, nerr := strconv.Atoi(s); nerr == nil {
		d, err = time.Duration(n)*time.Second, nil
	}
	if err != nil || d < time.Second || d%time.Second != 0 || d > PenaltyMemory {
		return 0, errors.New("the duration is not whole seconds in [1s, 24h]")
	}
	return d, nil
}
