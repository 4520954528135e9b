package service

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"time"
)

// Settings of how a command runs are not the service's (Config): each
// command declares those it reads in its own config struct and binds them
// with these helpers, so that every variable is read the same way — the
// environment variable as the default, the flag over it.

// Defaults of the run settings several commands share.
const (
	DefaultReportDir = "reports"
	DefaultMaxWait   = 15 * time.Second
)

// StringVar binds p to the flag name, defaulting to the environment
// variable env when set.
func StringVar(fs *flag.FlagSet, getenv Getenv, p *string, name, env, usage string) {
	if getenv == nil {
		getenv = os.LookupEnv
	}
	if v, ok := getenv(env); ok {
		*p = v
	}
	fs.StringVar(p, name, *p, usage+" ("+env+")")
}

// DurationVar binds p (a Go duration or seconds) to the flag name and the
// environment variable env; a malformed value surfaces through EnvErrors.
func DurationVar(fs *flag.FlagSet, getenv Getenv, p *time.Duration, name, env, usage string) {
	if getenv == nil {
		getenv = os.LookupEnv
	}
	fs.Var(envValue(getenv, env, (*durationFlag)(p)), name, usage+" ("+env+")")
}

// BoolVar binds p (1/0, true/false, yes/no, on/off) to the flag name and the
// environment variable env; a malformed value surfaces through EnvErrors.
func BoolVar(fs *flag.FlagSet, getenv Getenv, p *bool, name, env, usage string) {
	if getenv == nil {
		getenv = os.LookupEnv
	}
	fs.Var(envValue(getenv, env, (*boolFlag)(p)), name, usage+" ("+env+")")
}

// ReportDirVar binds REPORT_DIR, where a command writes its reports.
func ReportDirVar(fs *flag.FlagSet, getenv Getenv, p *string) {
	StringVar(fs, getenv, p, "report-dir", "REPORT_DIR", "where reports are written")
}

// ImageVar binds TARGET_IMAGE: a container image the command starts (with
// testcontainers-go) as the service instead of TARGET_URL.
func ImageVar(fs *flag.FlagSet, getenv Getenv, p *string) {
	StringVar(fs, getenv, p, "target-image", "TARGET_IMAGE", "container image to start instead of TARGET_URL")
}

// MaxWaitVar binds MAX_WAIT: the longest a command waits for a window to
// pass before it skips what needs the wait.
func MaxWaitVar(fs *flag.FlagSet, getenv Getenv, p *time.Duration) {
	DurationVar(fs, getenv, p, "max-wait", "MAX_WAIT", "longest wait for a window to pass")
}

// CheckImage reports a TARGET_IMAGE that cannot go with the service's
// settings.
func CheckImage(c Config, image string) error {
	if c.URL != "" && image != "" {
		return errors.New("TARGET_URL and TARGET_IMAGE are exclusive: set one")
	}
	if c.SQL != "" && image != "" {
		return errors.New("TARGET_SQL is the target: unset TARGET_IMAGE (and TARGET_URL)")
	}
	if image != "" {
		return c.TargetNeeds()
	}
	return nil
}

// CheckMaxWait reports a negative MAX_WAIT.
func CheckMaxWait(d time.Duration) error {
	if d < 0 {
		return fmt.Errorf("MAX_WAIT=%s must not be negative", d)
	}
	return nil
}
