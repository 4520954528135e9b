package fakeserver

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// The leaky bucket's modes (RL_LB_MODE, profiles.md LB_MODE).
const (
	LBModeDelay   = "delay"
	LBModeNoDelay = "nodelay"
)

// leakyFromEnv reads RL_DELAY (the queued requests answered at once) and
// RL_LB_MODE (delay, the default, or nodelay).
func (c *Config) leakyFromEnv(get func(string) (string, bool)) error {
	return readEnv(get, []envVar{
		{"RL_DELAY", func(s string) (err error) { c.QueueDelay, err = atLeast(s, 0); return err }},
		{"RL_LB_MODE", func(s string) error {
			switch strings.ToLower(s) {
			case LBModeDelay:
				c.NoDelay = false
			case LBModeNoDelay:
				c.NoDelay = true
			default:
				return fmt.Errorf("%q is not one of %s, %s", s, LBModeDelay, LBModeNoDelay)
			}
			return nil
		}},
	})
}

// hold keeps an allowed answer back for its turn in the queue (a leaky
// bucket's Decision.Wait) with Config.Hold, a timer by default. It
// reports false when the client gave up meanwhile: nothing is written.
func (s *Server) hold(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	if s.cfg.Hold != nil {
		return s.cfg.Hold(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
