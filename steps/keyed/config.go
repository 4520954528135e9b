package keyed

import (
	"math"
	"time"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// Window is W.
func (s *World) Window() time.Duration { return s.Env().Config.Window }

// WholeWindows reports whether the profile's design gives a key's whole
// quota back when its window ends (fixed-window): a request past that end
// may be allowed afresh.
func (s *World) WholeWindows() bool {
	return profile.Of(s.Env().Config.Profile).Refill == profile.RefillWindow
}

// Burst is B (RL_BURST).
func (s *World) Burst() int { return s.Env().Config.Burst }

// Rate is R (RL_RATE) in tokens per second.
func (s *World) Rate() float64 { return s.Env().Config.Rate }

// PerToken is 1/R, the time the bucket takes to refill one token.
func (s *World) PerToken() time.Duration {
	return time.Duration(float64(time.Second) / s.Rate())
}

// FitsMaxWait skips a scenario that would wait longer than MAX_WAIT.
func (s *World) FitsMaxWait(d time.Duration, what string) error {
	if d > s.Env().MaxWait {
		return scenario.Skip("%s takes %s, longer than MAX_WAIT=%s: configure the service with a faster RL_RATE (B = 5 at 2 tokens/s keeps every wait under 6 s) or raise MAX_WAIT",
			what, d.Round(time.Millisecond), s.Env().MaxWait)
	}
	return nil
}

// Seconds is d in whole seconds, rounded up.
func Seconds(d time.Duration) int64 { return int64(math.Ceil(d.Seconds())) }

// Epoch reports whether windows are aligned to the epoch.
func (s *World) Epoch() bool { return s.Env().Config.WindowAlign != profile.AlignFirstRequest }

// EpochStart is the start of the epoch window holding t.
func (s *World) EpochStart(t time.Time) time.Time {
	w := s.Window()
	return time.Unix(0, t.UnixNano()/int64(w)*int64(w))
}

// KeyWindowEnd is the latest the key's current window can end: the epoch
// boundary after the window's first request, or (first-request) when the
// response that opened it came back, plus W.
func (s *World) KeyWindowEnd() time.Time {
	if s.Epoch() {
		return s.Key.End
	}
	if s.Key.Opened == nil {
		return time.Time{}
	}
	return s.Key.Opened.Received.Add(s.Window())
}

// KeyWindowEarliestEnd is the earliest the current window can end: the
// Epoch boundary, or (first-request) W − 1 s after the request that opened
// it was sent. A server keeping whole seconds may end it up to 1 s early:
// one that truncates its clock ends it W after the whole second of the
// opening decision, and one whose whole seconds are a ticker's (Fiber's
// utils.Timestamp) as much as 1 s before that.
func (s *World) KeyWindowEarliestEnd() time.Time {
	if s.Epoch() || s.Key.Opened == nil {
		return s.KeyWindowEnd()
	}
	return s.Key.Opened.Sent.Add(s.Window() - time.Second)
}
