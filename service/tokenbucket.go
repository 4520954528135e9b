package service

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/profile"
)

// token-bucket's settings (profiles.md): RL_BURST is B, RL_RATE is R in
// tokens per second (fractional, e.g. 0.5). Both are required of a target
// (TARGET_URL, TARGET_IMAGE); the embedded reference serves the defaults,
// sized so that the profile's scenarios run in seconds.
const (
	envBurst = profile.SettingBurst
	envRate  = profile.SettingRate

	DefaultBurst = 5
	DefaultRate  = 2.0
	maxRate      = 1e6
)

// registerTokenBucketFlags binds -rl-burst and -rl-rate.
func (c *Config) registerTokenBucketFlags(fs *flag.FlagSet, getenv envflag.Getenv) {
	fs.Var(envflag.Value(getenv, envBurst, (*burstFlag)(&c.Burst)), "rl-burst", profile.TakenBy(envBurst)+": the bucket's size B (RL_BURST)")
	fs.Var(envflag.Value(getenv, envRate, (*rateFlag)(&c.Rate)), "rl-rate", profile.TakenBy(envRate)+": refill rate R in tokens per second, may be fractional (RL_RATE)")
}

// burstFlag is RL_BURST: a positive integer (0 in Config: not given).
type burstFlag int

func (f *burstFlag) String() string { return strconv.Itoa(int(*f)) }
func (f *burstFlag) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return fmt.Errorf("%q is not a positive integer", s)
	}
	*f = burstFlag(n)
	return nil
}

// rateFlag is RL_RATE: tokens per second in (0, 1e6] (0 in Config: not
// given).
type rateFlag float64

func (f *rateFlag) String() string { return strconv.FormatFloat(float64(*f), 'g', -1, 64) }
func (f *rateFlag) Set(s string) error {
	r, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(r) || r <= 0 || r > maxRate {
		return fmt.Errorf("%q is not a number of tokens per second in (0, %g]", s, maxRate)
	}
	*f = rateFlag(r)
	return nil
}

// validateTokenBucket: a target of PROFILE=token-bucket must say its B and
// R; values set in Config directly are checked as the flags check them.
func (c Config) validateTokenBucket() error {
	switch {
	case c.Burst < 0:
		return fmt.Errorf("%s=%d must be a positive integer", envBurst, c.Burst)
	case math.IsNaN(c.Rate) || c.Rate < 0 || c.Rate > maxRate:
		return fmt.Errorf("%s=%g must be a number of tokens per second in (0, %g]", envRate, c.Rate, maxRate)
	}
	return nil
}

// needsBucket: a target other than the embedded reference of a design
// sized by a rate (profile.Profile.SizedByRate: the token bucket, the
// leaky bucket) must say its B and R; a run on guessed sizes would judge
// another limiter than the target's.
func (c Config) needsBucket() error {
	if profile.Of(c.Profile).SizedByRate() && (c.Burst == 0 || c.Rate == 0) {
		return fmt.Errorf("PROFILE=%s needs RL_BURST and RL_RATE, the target's size B and rate R per second (e.g. RL_BURST=5 RL_RATE=2)", c.Profile)
	}
	return nil
}

// WithTokenBucketDefaults fills RL_BURST and RL_RATE left unset with the
// embedded reference's defaults.
func (c Config) WithTokenBucketDefaults() Config {
	if c.Burst == 0 {
		c.Burst = DefaultBurst
	}
	if c.Rate == 0 {
		c.Rate = DefaultRate
	}
	return c
}
