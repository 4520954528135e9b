package service

import (
	"flag"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/model"
	"github.com/rlspec/rlspec/profile"
)

// penalties' settings (profiles.md, any profile): RL_PENALTIES are the
// tiers the target runs with, count:duration,…; TARGET_URL_PENALTIES an
// instance running with them when TARGET_URL is one without (profiles.md:
// core clauses are checked against an instance without penalties). The
// embedded reference serves DefaultPenalties on an instance of its own.
const (
	envPenalties    = "RL_PENALTIES"
	envPenaltiesURL = "TARGET_URL_PENALTIES"

	// DefaultPenalties: the first violation is free (PN-3's "counts below
	// the first tier"), the second starts 5 s, the third 8 s, the fourth
	// and later 11 s — tiers 3 s apart, so escalation is decidable, a third
	// tier that tells refusals counted as violations (PN-4-03), and a run
	// of seconds.
	DefaultPenalties = "2:5s,3:8s,4:11s"
)

// registerPenaltyFlags binds -rl-penalties and -target-url-penalties.
func (c *Config) registerPenaltyFlags(fs *flag.FlagSet, getenv envflag.Getenv) {
	fs.Var(envflag.Value(getenv, envPenalties, (*penaltiesFlag)(&c.Penalties)), "rl-penalties",
		"penalties: the target's tiers count:duration,…, e.g. 2:4s,3:8s (RL_PENALTIES)")
	if v, ok := getenv(envPenaltiesURL); ok {
		c.PenaltiesURL = v
	}
	fs.StringVar(&c.PenaltiesURL, "target-url-penalties", c.PenaltiesURL,
		"penalties: base URL of an instance running with RL_PENALTIES; default TARGET_URL ("+envPenaltiesURL+")")
}

// penaltiesFlag is RL_PENALTIES.
type penaltiesFlag []model.PenaltyTier

func (f *penaltiesFlag) String() string { return model.FormatPenaltyTiers(*f) }
func (f *penaltiesFlag) Set(s string) error {
	tiers, err := model.ParsePenaltyTiers(s)
	if err != nil {
		return err
	}
	*f = tiers
	return nil
}

// validatePenalties: TARGET_URL_PENALTIES is a base URL.
func (c Config) validatePenalties() error {
	if c.PenaltiesURL != "" {
		if err := CheckBaseURL(c.PenaltiesURL); err != nil {
			return fmt.Errorf("%s=%q is not an http(s) base URL", envPenaltiesURL, c.PenaltiesURL)
		}
	}
	return nil
}

// WithPenaltyDefaults fills RL_PENALTIES left unset with the embedded
// reference's DefaultPenalties when penalties are claimed.
func (c Config) WithPenaltyDefaults() Config { return c.withDefault(profile.Penalties) }

// PenaltyTarget is the base URL the penalties scenarios send to.
func (c Config) PenaltyTarget() string {
	if c.PenaltiesURL != "" {
		return c.PenaltiesURL
	}
	return c.URL
}

// EscalationDecidable reports whether successive tiers' durations differ
// by at least 3 s (profiles.md: otherwise escalation cannot be told apart
// within the tolerance).
func EscalationDecidable(tiers []model.PenaltyTier) bool {
	for i := 1; i < len(tiers); i++ {
		if d := tiers[i].Duration - tiers[i-1].Duration; d < 3*time.Second && d > -3*time.Second {
			return false
		}
	}
	return true
}

// ClaimedPenalties is RL_PENALTIES when penalties are claimed, else nil:
// the tiers an embedded reference starts its penalties instance with.
func (c Config) ClaimedPenalties() []model.PenaltyTier {
	if !c.Claims(profile.Penalties) {
		return nil
	}
	return c.Penalties
}
