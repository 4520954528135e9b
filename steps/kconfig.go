package steps

import (
	"math"
	"time"

	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/steps/scenario"
)

// window is W.
func (s *world) window() time.Duration { return s.env.Config.Window }

// burst is B (RL_BURST).
func (s *world) burst() int { return s.env.Config.Burst }

// rate is R (RL_RATE) in tokens per second.
func (s *world) rate() float64 { return s.env.Config.Rate }

// perToken is 1/R, the time the bucket takes to refill one token.
func (s *world) perToken() time.Duration {
	return time.Duration(float64(time.Second) / s.rate())
}

// fitsMaxWait skips a scenario that would wait longer than MAX_WAIT.
func (s *world) fitsMaxWait(d time.Duration, what string) error {
	if d > s.env.MaxWait {
		return scenario.Skip("%s takes %s, longer than MAX_WAIT=%s: configure the service with a faster RL_RATE (B = 5 at 2 tokens/s keeps every wait under 6 s) or raise MAX_WAIT",
			what, d.Round(time.Millisecond), s.env.MaxWait)
	}
	return nil
}

// seconds is d in whole seconds, rounded up.
func seconds(d time.Duration) int64 { return int64(math.Ceil(d.Seconds())) }

// epoch reports whether windows are aligned to the epoch.
func (s *world) epoch() bool { return s.env.Config.WindowAlign != profile.AlignFirstRequest }

// epochStart is the start of the epoch window holding t.
func (s *world) epochStart(t time.Time) time.Time {
	w := s.window()
	return time.Unix(0, t.UnixNano()/int64(w)*int64(w))
}

// keyWindowEnd is the latest the key's current window can end: the epoch
// boundary after the window's first request, or (first-request) when the
// response that opened it came back, plus W.
func (s *world) keyWindowEnd() time.Time {
	if s.epoch() {
		return s.Key.End
	}
	if s.Key.Opened == nil {
		return time.Time{}
	}
	return s.Key.Opened.Received.Add(s.window())
}

// keyWindowEarliestEnd is the earliest the current window can end: the
// epoch boundary, or (first-request) W after the whole second in which the
// request that opened it was sent (a server keeping whole seconds ends it
// there).
func (s *world) keyWindowEarliestEnd() time.Time {
	if s.epoch() || s.Key.Opened == nil {
		return s.keyWindowEnd()
	}
	return s.Key.Opened.Sent.Truncate(time.Second).Add(s.window())
}
