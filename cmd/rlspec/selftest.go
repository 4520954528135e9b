package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/internal/junit"
	"github.com/rlspec/rlspec/internal/overload"
	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/selftest"
	"github.com/rlspec/rlspec/service"
)

// selftestConfig is everything `rlspec selftest` reads, filled once here.
type selftestConfig struct {
	Runs      int
	Checks    int
	Faults    []fault.Name // nil: all
	ReportDir string
	Store     fakeserver.StoreKind // STORE
	Profiles  []profile.Name       // PROFILE; nil: all
	Parallel  int                  // SELFTEST_PARALLEL (0: the matrix's default)
	Quiet     bool
	Overload  overload.Settings // OVERLOAD
	Detect    int               // DETECT: single suites per fault
	Focus     bool              // FOCUS: each fault runs only the scenarios that can catch it
}

// runSelftest runs the self-test matrix (make selftest): the acceptance
// suite and the race properties against the reference (RUNS times) and
// every fault; the matrix on stdout, progress on stderr. Exit 0 when the
// reference passed every run and every fault was caught as expected, 1
// otherwise, 2 when the matrix could not run.
func runSelftest(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := selftestSettings(args, os.LookupEnv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return couldNotRun(stderr, "selftest", "", err.Error())
	}
	opts := []selftest.Option{selftest.WithRuns(cfg.Runs), selftest.WithRaceChecks(cfg.Checks), selftest.WithReportDir(cfg.ReportDir), selftest.WithStore(cfg.Store),
		selftest.WithOverload(cfg.Overload)}
	if cfg.Parallel > 0 { // 0: the matrix's default, which depends on the overload
		opts = append(opts, selftest.WithParallel(cfg.Parallel))
	}
	if cfg.Detect > 1 {
		opts = append(opts, selftest.WithDetection(cfg.Detect))
	}
	if cfg.Focus {
		opts = append(opts, selftest.WithFocus())
	}
	if cfg.Faults != nil {
		opts = append(opts, selftest.WithFaults(cfg.Faults...))
	}
	if cfg.Profiles != nil {
		opts = append(opts, selftest.WithProfiles(cfg.Profiles...))
	}
	if !cfg.Quiet {
		opts = append(opts, selftest.WithProgress(stderr))
	}
	m, err := selftest.Run(ctx, opts...)
	if err != nil {
		return couldNotRun(stderr, "selftest", cfg.ReportDir, "could not run: "+oneLine(err.Error()))
	}
	m.Write(stdout)
	sqlOK := true
	if cfg.Faults == nil && (cfg.Profiles == nil || slices.Contains(cfg.Profiles, service.SQLProfile)) {
		progress := stderr
		if cfg.Quiet {
			progress = io.Discard
		}
		ok, err := selftestSQL(ctx, cfg.Checks, stdout, progress)
		if err != nil {
			return couldNotRun(stderr, "selftest", cfg.ReportDir, "could not run: "+oneLine(err.Error()))
		}
		sqlOK = ok
	}
	if err := junit.WriteFile(cfg.ReportDir, m.JUnit()); err != nil {
		return couldNotRun(stderr, "selftest", cfg.ReportDir, "write junit.xml: "+err.Error())
	}
	fmt.Fprintf(stdout, "report: %s\n", filepath.Join(cfg.ReportDir, junit.FileName))
	if !m.OK() || !sqlOK {
		return 1
	}
	return 0
}

// selftestSummary is the first paragraph of `rlspec selftest -h`.
const selftestSummary = `Run the acceptance suite and the race properties against the reference
(RUNS times) and against every fault, and print the matrix. Exit status: 0
the reference passed and every fault was caught, 1 otherwise, 2 could not run.`

// selftestSettings reads RUNS, CHECKS, FAULTS and REPORT_DIR (flags win over
// the environment); -h writes the usage to help.
func selftestSettings(args []string, getenv envflag.Getenv, help io.Writer) (selftestConfig, error) {
	cfg := selftestConfig{Runs: 1, Checks: selftest.DefaultRaceChecks, ReportDir: service.DefaultReportDir}
	fs := flag.NewFlagSet("rlspec selftest", flag.ContinueOnError)
	var runs, checks, faultList, reportDir, store, parallel, profiles, starve, detections, focus string
	env := func(p *string, name, envName, usage string) {
		if v, ok := getenv(envName); ok {
			*p = v
		}
		fs.StringVar(p, name, *p, usage+" ("+envName+")")
	}
	env(&runs, "runs", "RUNS", "runs against the correct reference, each a whole suite and a race hunt (default 1)")
	env(&checks, "checks", "CHECKS", fmt.Sprintf("race workloads per hunt (default %d)", selftest.DefaultRaceChecks))
	env(&parallel, "parallel", "SELFTEST_PARALLEL", fmt.Sprintf("faults whose suites run at once (default %d; %d under -overload)", selftest.DefaultParallel, selftest.OverloadParallel))
	env(&faultList, "faults", "FAULTS", "comma-separated faults to test (default all; 'none': the reference only)")
	env(&profiles, "profile", "PROFILE", "comma-separated profiles whose suites, race hunts and faults run: "+profile.Choices(false)+" (default all)")
	env(&store, "store", "STORE", "the store of the reference and every fault: sqlite (default) or postgres, a throwaway cluster")
	env(&starve, "overload", "OVERLOAD", "run starved as a CI runner is: default (4 CPU hogs, rlspec at a third of a core, 20ms-200ms per request) or hogs=N,cpu=CORES,delay=MIN-MAX; the per-scenario table follows")
	env(&detections, "detect", "DETECT", "run each fault's suite this many times, single runs without a second chance, and print the detection table (a required scenario must catch its fault in 19 of 20)")
	env(&focus, "focus", "FOCUS", "1: each fault's suite runs only the scenarios it must fail and those no fault requires (quicker; the caught column loses incidental failures)")
	env(&reportDir, "report-dir", "REPORT_DIR", "where a failing race history's porcupine visualisation goes")
	fs.BoolVar(&cfg.Quiet, "q", false, "no progress lines on stderr")
	if err := envflag.Parse(fs, args, selftestSummary, help); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	var errs []error
	intVar := func(s, name string, dst *int) {
		if strings.TrimSpace(s) == "" {
			return
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			errs = append(errs, fmt.Errorf("%s=%q must be an integer of at least 1", name, s))
			return
		}
		*dst = n
	}
	intVar(runs, "RUNS", &cfg.Runs)
	intVar(checks, "CHECKS", &cfg.Checks)
	intVar(parallel, "SELFTEST_PARALLEL", &cfg.Parallel)
	cfg.Detect = 1
	intVar(detections, "DETECT", &cfg.Detect)
	switch strings.TrimSpace(focus) {
	case "", "0", "false":
	case "1", "true":
		cfg.Focus = true
	default:
		errs = append(errs, fmt.Errorf("FOCUS=%q must be 1 or 0", focus))
	}
	if s := strings.TrimSpace(profiles); s != "" && s != string(profile.Every) {
		for _, name := range strings.Split(s, ",") {
			p, err := profile.Parse(name, false)
			if err == nil && strings.TrimSpace(name) == "" {
				err = fmt.Errorf("%q is not one of %s", name, profile.Choices(true))
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("PROFILE: %w", err))
				continue
			}
			cfg.Profiles = append(cfg.Profiles, p) // WithProfiles drops repeats
		}
	}
	if s := strings.TrimSpace(faultList); s != "" {
		cfg.Faults = []fault.Name{}
		if s != "none" {
			for _, name := range strings.Split(s, ",") {
				f, err := faults.Parse(name)
				if err != nil {
					errs = append(errs, fmt.Errorf("FAULTS: %w", err))
					continue
				}
				if f == fault.None {
					errs = append(errs, fmt.Errorf("FAULTS: %q is the reference, which always runs", name))
					continue
				}
				cfg.Faults = append(cfg.Faults, f)
			}
		}
	}
	if o, err := overload.Parse(starve); err != nil {
		errs = append(errs, fmt.Errorf("OVERLOAD: %w", err))
	} else {
		cfg.Overload = o
	}
	if s := strings.TrimSpace(reportDir); s != "" {
		cfg.ReportDir = s
	}
	if k, err := fakeserver.ParseStoreKind(store); err != nil {
		errs = append(errs, fmt.Errorf("STORE: %w", err))
	} else {
		cfg.Store = k
	}
	return cfg, errors.Join(errs...)
}

// selftestSQL runs spec/004's function and its faulty variants (the full
// matrix only) and prints their rows; without PostgreSQL it says so in one
// line and counts as passed.
func selftestSQL(ctx context.Context, checks int, stdout, progress io.Writer) (bool, error) {
	rows, err := selftest.RunSQL(ctx, checks, progress)
	if errors.Is(err, pgcluster.ErrNotInstalled) {
		fmt.Fprintf(stdout, "\nspec/004's function: not run: %v\n", err)
		return true, nil
	}
	if err != nil {
		return false, err
	}
	selftest.WriteSQL(stdout, rows)
	for _, r := range rows {
		if !r.OK() {
			return false, nil
		}
	}
	return true, nil
}
