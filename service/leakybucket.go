package service

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/profile"
)

// The leaky bucket's settings (profiles.md): LB_MODE, delay (the default:
// a queued request waits its turn) or nodelay (answered at once, its place
// freed at R, as nginx's limit_req nodelay), and RL_DELAY, the queued
// requests answered at once (nginx's delay=).
const (
	envLBMode = profile.SettingLBMode
	envDelay  = profile.SettingDelay

	LBModeDelay   = "delay"
	LBModeNoDelay = "nodelay"
)

// registerLeakyBucketFlags binds -lb-mode and -rl-delay.
func (c *Config) registerLeakyBucketFlags(fs *flag.FlagSet, getenv envflag.Getenv) {
	fs.Var(envflag.Value(getenv, envLBMode, (*lbModeFlag)(&c.LBMode)), FlagLBMode, profile.TakenBy(envLBMode)+": delay (queued requests wait their turn) or nodelay (answered at once, places freed at R) (LB_MODE)")
	fs.Var(envflag.Value(getenv, envDelay, (*delayFlag)(&c.Delay)), FlagDelay, profile.TakenBy(envDelay)+": the queued requests answered at once, D in [0, RL_BURST] (RL_DELAY)")
}

// lbModeFlag is LB_MODE ("" in Config: not given, delay).
type lbModeFlag string

func (f *lbModeFlag) String() string { return string(*f) }
func (f *lbModeFlag) Set(s string) error {
	switch s = strings.TrimSpace(s); s {
	case LBModeDelay, LBModeNoDelay:
		*f = lbModeFlag(s)
		return nil
	}
	return fmt.Errorf("%q is not one of %s, %s", s, LBModeDelay, LBModeNoDelay)
}

// delayFlag is RL_DELAY: a non-negative integer (0 in Config: none).
type delayFlag int

func (f *delayFlag) String() string { return strconv.Itoa(int(*f)) }
func (f *delayFlag) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a non-negative integer", s)
	}
	*f = delayFlag(n)
	return nil
}

// NoDelay reports LB_MODE=nodelay.
func (c Config) NoDelay() bool { return c.LBMode == LBModeNoDelay }

// AnsweredAtOnce is D, how many queued requests of an idle key are
// answered at once: RL_DELAY, or under nodelay every one of the B.
func (c Config) AnsweredAtOnce() int {
	if c.NoDelay() {
		return c.Burst
	}
	return c.Delay
}

// validateLeakyBucket: RL_DELAY at most RL_BURST (the queue's places), and
// not beside nodelay (which answers every queued request at once: nginx
// takes one or the other).
func (c Config) validateLeakyBucket() error {
	switch {
	case c.LBMode != "" && c.LBMode != LBModeDelay && c.LBMode != LBModeNoDelay:
		return fmt.Errorf("%s=%q is not one of %s, %s", envLBMode, c.LBMode, LBModeDelay, LBModeNoDelay)
	case c.Delay < 0:
		return fmt.Errorf("%s=%d must be a non-negative integer", envDelay, c.Delay)
	case c.Delay > 0 && c.NoDelay():
		return fmt.Errorf("%s=%d and %s=%s: nodelay answers every queued request at once; give one or the other", envDelay, c.Delay, envLBMode, LBModeNoDelay)
	case c.Delay > 0 && c.Burst > 0 && c.Delay > c.Burst:
		return fmt.Errorf("%s=%d must be at most RL_BURST=%d, the queue's places", envDelay, c.Delay, c.Burst)
	}
	return nil
}
