package model

import (
	"strconv"
	"strings"
	"time"
)

// SlidingLog is profiles.md's sliding-log (spec/002): at most Limit allowed
// requests in any window of length Window. The key's State keeps the log of
// allowed requests still inside the window (Log, unix milliseconds);
// refused requests are not recorded (SL-5).
//
//   - A request is allowed when fewer than Limit logged requests lie in
//     (now − Window, now]; it is logged at now. Remaining = Limit − the
//     logged requests, this one included; Reset = the unix second at which
//     the oldest logged request leaves the window (SL-7).
//   - Otherwise it is refused and nothing changes: Remaining 0, RetryAfter =
//     the whole seconds until the oldest logged request leaves (SL-6, in
//     [1, Window]), Reset = now + RetryAfter.
//
// State.Reset is when the newest logged request leaves (the whole log has
// expired: a store may delete the key then); State.Remaining is Limit − the
// logged requests at the last write.
type SlidingLog struct {
	Limit  int
	Window time.Duration // whole seconds
}

var _ Model = SlidingLog{}

// NewSlidingLog checks limit >= 1 and window a whole number of seconds >= 1s.
func NewSlidingLog(limit int, window time.Duration) (SlidingLog, error) {
	return checked("sliding-log", SlidingLog{Limit: limit, Window: window}, limit, window)
}

// Step applies the rule above.
func (m SlidingLog) Step(st State, req Request, now time.Time) (State, Decision) {
	t, w := now.UnixMilli(), m.Window.Milliseconds()
	log := live(DecodeLog(st.Log), t-w)
	d := Decision{Limit: m.Limit, Remaining: max(m.Limit-len(log), 0), Reset: ceilSecond(t + w)}
	if len(log) > 0 {
		d.Reset = ceilSecond(log[0] + w)
	}
	if req.Cost == 0 {
		d.Allowed = true
		return st, d
	}
	if len(log)+req.Cost > m.Limit {
		// The (len+cost−limit)-th oldest must leave before cost units fit.
		free := t + w // a cost above the limit never fits; say a window
		if k := len(log) + req.Cost - m.Limit; k <= len(log) {
			free = log[k-1] + w
		}
		d.Remaining = 0
		d.RetryAfter = max((free-t+999)/1000, 1)
		d.Reset = now.Unix() + d.RetryAfter
		return st, d
	}
	for range req.Cost {
		log = append(log, t)
	}
	next := State{Found: true, Remaining: m.Limit - len(log), Reset: ceilSecond(t + w), Log: EncodeLog(log)}
	d.Allowed, d.Remaining, d.Reset, d.Write = true, next.Remaining, ceilSecond(log[0]+w), true
	return next, d
}

// live drops the entries at or before cut (they have left the window).
func live(log []int64, cut int64) []int64 {
	i := 0
	for i < len(log) && log[i] <= cut {
		i++
	}
	return log[i:]
}

// ceilSecond is the unix second at or after ms.
func ceilSecond(ms int64) int64 {
	s := ms / 1000
	if ms%1000 > 0 {
		s++
	}
	return s
}

// EncodeLog is the State.Log of ascending unix milliseconds: decimal,
// comma-separated (a TEXT column in any store).
func EncodeLog(log []int64) string {
	b := make([]byte, 0, len(log)*14) // 13 digits of unix milliseconds and a comma
	for i, t := range log {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, t, 10)
	}
	return string(b)
}

// DecodeLog reads EncodeLog's text; entries that do not parse are dropped
// (a store's text is the model's own, so this only loses corrupt entries).
func DecodeLog(s string) []int64 {
	if s == "" {
		return nil
	}
	// One entry more than it holds: Step appends the request's time.
	log := make([]int64, 0, strings.Count(s, ",")+2)
	for p := range strings.SplitSeq(s, ",") {
		if t, err := strconv.ParseInt(p, 10, 64); err == nil {
			log = append(log, t)
		}
	}
	return log
}

// Canonical is st as it decides every request from at on: its live entries
// alone, and the key never seen once all have left the window.
func (m SlidingLog) Canonical(st State, at time.Time) State {
	log := live(DecodeLog(st.Log), at.UnixMilli()-m.Window.Milliseconds())
	if len(log) == 0 {
		return State{}
	}
	return State{Found: true, Log: EncodeLog(log)}
}
