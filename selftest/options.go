package selftest

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/rlspec/rlspec/embedded"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/internal/overload"
	"github.com/rlspec/rlspec/profile"
)

// Defaults of Run.
const (
	DefaultRaceChecks = 100
	// DefaultReferenceReplicas is the number of in-process servers on one
	// database file the reference's race hunt targets, so that the
	// process-cache comparison (caught with several, clean reference) is
	// made on the same topology.
	DefaultReferenceReplicas = 2
)

type config struct {
	runs       int
	raceChecks int
	faults     []fault.Name
	progress   io.Writer
	reportDir  string
	store      fakeserver.StoreKind
	pg         *embedded.Postgres // with STORE=postgres, the cluster every suite and hunt shares
	parallel   int
	profiles   []profile.Name // nil: every profile
	overload   overload.Settings
	detect     int    // single suites per fault (WithDetection); 0 or 1: one
	focus      *focus // WithFocus; nil: every fault runs the whole suite
}

// WithDetection runs each fault's suite n times, each a single run with
// no second chance, and counts per scenario how often it caught the fault:
// the detection table. A required scenario that caught it in fewer than
// 19 of 20 runs (19n/20) is missed.
func WithDetection(n int) Option {
	return atLeastOne(n, "selftest: %d detection runs; want at least 1", func(c *config) { c.detect = n })
}

// WithOverload runs the whole matrix starved as s says (CPU hogs beside
// rlspec, a CPU quota on its process, the target slowed per request): the
// verdicts of a loaded CI runner. The matrix says what was in force.
func WithOverload(s overload.Settings) Option {
	return func(c *config) error { c.overload = s; return nil }
}

// Option configures Run.
type Option func(*config) error

// atLeastOne is the Option that sets n (with set) when it is at least 1,
// and otherwise fails saying so (format, given n).
func atLeastOne(n int, format string, set func(*config)) Option {
	return func(c *config) error {
		if n < 1 {
			return fmt.Errorf(format, n)
		}
		set(c)
		return nil
	}
}

// DefaultParallel is how many faulty references the acceptance lane runs
// at once. The suite against one reference mostly waits (on windows of
// seconds and on the reference's fsyncs): on two quiet cores the whole
// matrix (both stores) took 6 min 39 s at four, the cores 41% busy, and
// 4 min 42 s at eight, every fault caught. The matrix in `make test`
// (TestFaultMatrix) keeps four, beside the -race tests that fill the cores.
const DefaultParallel = 8

// OverloadParallel is the default under WithOverload: the starvation is
// the overload's own, and its tables (README) were measured at four.
const OverloadParallel = 4

// suitesAtOnce is WithParallel's n, or its default.
func (c config) suitesAtOnce() int {
	switch {
	case c.parallel > 0:
		return c.parallel
	case !c.overload.Zero():
		return OverloadParallel
	}
	return DefaultParallel
}

// WithParallel runs n acceptance suites at once (default
// DefaultParallel, OverloadParallel under WithOverload): the correct
// reference's, one per profile and serving, then the faults'. The
// reference's verdicts share the machine with at most n − 1 other suites,
// as each fault's do; with n = 1 every suite runs alone.
func WithParallel(n int) Option {
	return atLeastOne(n, "parallel %d: want at least 1", func(c *config) { c.parallel = n })
}

// WithRuns runs the correct reference n times (default 1): each run is a
// whole acceptance suite and a race hunt, all of which must pass.
func WithRuns(n int) Option {
	return atLeastOne(n, "runs %d must be at least 1", func(c *config) { c.runs = n })
}

// WithRaceChecks sets the generated workloads per race hunt (default
// DefaultRaceChecks): the budget within which a concurrency fault must be
// found, and the number of clean workloads the reference must pass.
func WithRaceChecks(n int) Option {
	return atLeastOne(n, "race checks %d must be at least 1", func(c *config) { c.raceChecks = n })
}

// WithFaults restricts the matrix to these faults (default: all). With
// none given, only the reference runs.
func WithFaults(fs ...fault.Name) Option {
	return func(c *config) error {
		for _, f := range fs {
			if f == fault.None {
				return errors.New("the reference is not a fault: it always runs")
			}
		}
		c.faults = slices.Clone(fs)
		if c.faults == nil {
			c.faults = []fault.Name{}
		}
		return nil
	}
}

// WithProfiles restricts the matrix to these profiles (default: every
// profile the faults belong to): the reference runs their suites and race
// hunts only, and the faults default to theirs. A fault of another profile
// in WithFaults is an error.
func WithProfiles(ps ...profile.Name) Option {
	return func(c *config) error {
		if len(ps) == 0 {
			return errors.New("profiles: name at least one")
		}
		c.profiles = nil
		for _, p := range ps {
			p, err := fakeserver.ParseProfile(string(p))
			if err != nil {
				return err
			}
			if !slices.Contains(c.profiles, p) {
				c.profiles = append(c.profiles, p)
			}
		}
		return nil
	}
}

// suiteProfiles are the profiles the reference runs: WithProfiles' or all.
func (c config) suiteProfiles() []profile.Name {
	if c.profiles != nil {
		return c.profiles
	}
	return profiles()
}

// WithStore runs the embedded reference and every fault on this store
// (default SQLite; PostgreSQL: a throwaway cluster per run).
func WithStore(k fakeserver.StoreKind) Option {
	return func(c *config) error {
		if _, err := fakeserver.ParseStoreKind(string(k)); err != nil {
			return err
		}
		c.store = k
		return nil
	}
}

// WithProgress writes one line per finished run to w (default: none).
func WithProgress(w io.Writer) Option {
	return func(c *config) error {
		if w == nil {
			w = io.Discard
		}
		c.progress = w
		return nil
	}
}

// WithReportDir is where porcupine's visualisation of a failing race
// history goes (default: not written).
func WithReportDir(dir string) Option {
	return func(c *config) error { c.reportDir = dir; return nil }
}
