package service

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/rlspec/rlspec/envflag"
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

// ReportDirVar binds REPORT_DIR, where a command writes its reports.
func ReportDirVar(fs *flag.FlagSet, getenv envflag.Getenv, p *string) {
	envflag.StringVar(fs, getenv, p, "report-dir", "REPORT_DIR", "where reports are written")
}

// ImageVar binds TARGET_IMAGE: a container image the command starts (with
// testcontainers-go) as the service instead of TARGET_URL.
func ImageVar(fs *flag.FlagSet, getenv envflag.Getenv, p *string) {
	envflag.StringVar(fs, getenv, p, "target-image", "TARGET_IMAGE", "container image to start instead of TARGET_URL")
}

// MaxWaitVar binds MAX_WAIT: the longest a command waits for a window to
// pass before it skips what needs the wait.
func MaxWaitVar(fs *flag.FlagSet, getenv envflag.Getenv, p *time.Duration) {
	envflag.DurationVar(fs, getenv, p, "max-wait", "MAX_WAIT", "longest wait for a window to pass")
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
