package acceptance

import (
	"errors"
	"flag"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/service"
)

// Settings are how the suite runs, not what the service is
// (service.Config): which scenarios, how strictly, how long a scenario
// may wait for a window, and where the reports go.
type Settings struct {
	Tags      string        // TAGS: a godog tag expression
	Strict    bool          // STRICT: a skipped scenario (other than not claimed) fails the run
	ReportDir string        // REPORT_DIR
	MaxWait   time.Duration // MAX_WAIT: the longest wait for a window to pass
	Verbose   bool          // VERBOSE (-v): a line for each scenario of a feature not claimed too
}

// DefaultSettings are the contract's defaults.
func DefaultSettings() Settings {
	return Settings{ReportDir: service.DefaultReportDir, MaxWait: service.DefaultMaxWait}
}

// RegisterFlags binds the settings to fs, each defaulting to its
// environment variable; call Validate after parsing.
func (s *Settings) RegisterFlags(fs *flag.FlagSet, getenv envflag.Getenv) {
	envflag.StringVar(fs, getenv, &s.Tags, "tags", "TAGS", "Cucumber tag expression selecting scenarios, e.g. '@AC3 and not @extended'")
	envflag.BoolVar(fs, getenv, &s.Strict, "strict", "STRICT", "1: a skipped scenario fails the run")
	service.ReportDirVar(fs, getenv, &s.ReportDir)
	service.MaxWaitVar(fs, getenv, &s.MaxWait)
	envflag.BoolVar(fs, getenv, &s.Verbose, "v", "VERBOSE", "list the scenarios of features not claimed one by one")
}

// Validate reports the settings that cannot work, one sentence each.
func (s Settings) Validate() error {
	return errors.Join(service.CheckMaxWait(s.MaxWait), CheckTags(s.Tags))
}
