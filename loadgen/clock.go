package loadgen

import (
	"context"
	"time"
)

// Clock is the time source of an attack: the scheduler waits on it for each
// intended send time and workers read it around each request. Tests use a
// fake clock; production uses SystemClock.
type Clock interface {
	Now() time.Time
	// SleepUntil returns once Now() >= t, or with ctx's error when ctx ends
	// first.
	SleepUntil(ctx context.Context, t time.Time) error
}

// SystemClock is the wall clock (monotonic readings). Its SleepUntil uses a
// precise sleep where the platform has one (nanosleep on Unix, ~0.1 ms late
// instead of the ~1 ms of a Go timer), so the scheduler's own lateness stays
// small; the scheduler goroutine is locked to its thread for that.
type SystemClock struct{}

var _ Clock = SystemClock{}

// Now is time.Now.
func (SystemClock) Now() time.Time { return time.Now() }

// maxPreciseSleep bounds one precise sleep so cancellation is noticed.
const maxPreciseSleep = 20 * time.Millisecond

// SleepUntil sleeps in slices of at most 20 ms, checking ctx between them.
func (SystemClock) SleepUntil(ctx context.Context, t time.Time) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		d := time.Until(t)
		if d <= 0 {
			return nil
		}
		preciseSleep(min(d, maxPreciseSleep))
	}
}
