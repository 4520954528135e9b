package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faults"
	"github.com/rlspec/rlspec/internal/junit"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/racehunt"
	"github.com/rlspec/rlspec/redact"
	"github.com/rlspec/rlspec/service"
	"github.com/rlspec/rlspec/sqltarget/spec004"
)

// raceConfig is everything `rlspec race` reads, filled once here.
type raceConfig struct {
	Target     service.Config
	Image      string        // TARGET_IMAGE: started instead of TARGET_URL
	ReportDir  string        // REPORT_DIR
	MaxWait    time.Duration // MAX_WAIT: the longest wait for a window boundary
	Seed       uint64
	Checks     int
	Repeat     int
	Replicas   int
	Fault      fault.Name
	Variant    spec004.Variant      // FAULT with TARGET_SQL: spec/004's function's variant
	Store      fakeserver.StoreKind // the embedded reference's store (STORE)
	URLs       []string             // TARGET_URLS: instances of one service on one store
	ShrinkTime time.Duration
	Verbose    bool
	set        map[string]string // variables given, for the replay command
}

// runRace hunts races with generated concurrent workloads (make race).
func runRace(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, exit, ok := commandSettings("race", args, stdout, stderr, raceSettings)
	if !ok {
		return exit
	}
	dir := cfg.ReportDir
	if cfg.Target.SQL != "" {
		return runSQLRace(ctx, cfg, stdout, stderr)
	}
	tgt, err := startRaceTarget(ctx, cfg, stderr)
	if err != nil {
		return couldNotRun(stderr, "race", dir, fmt.Sprintf("could not run: %v", err))
	}
	defer func() {
		if err := tgt.Close(); err != nil {
			fmt.Fprintf(stderr, "rlspec race: stopping the target: %v\n", err)
		}
	}()
	opts := racehunt.HuntOptions{
		Checks:     cfg.Checks,
		Seed:       cfg.Seed,
		Repeat:     cfg.Repeat,
		ShrinkTime: cfg.ShrinkTime,
		ReportDir:  cfg.ReportDir,
		FailKey:    raceFailKey(cfg, tgt),
		Gen:        racehunt.GenOptions{Boundaries: true, Profile: cfg.Target.Profile},
		Log:        func(format string, a ...any) { fmt.Fprintf(stderr, "rlspec race: "+format+"\n", a...) },
	}
	res, err := racehunt.Hunt(ctx, tgt, opts)
	if err != nil {
		return couldNotRun(stderr, "race", dir, err.Error())
	}
	if err := junit.WriteFile(dir, raceJUnit(cfg, tgt, res)); err != nil {
		fmt.Fprintf(stderr, "rlspec race: %v\n", err)
	}
	if !res.Found {
		if cfg.Seed != 0 {
			fmt.Fprintf(stdout, "rlspec race: seed %d did not reproduce: 0/%d runs violated a property (%s)\n", cfg.Seed, res.Repeat, res.Duration.Round(time.Millisecond))
			return 0
		}
		fmt.Fprintf(stdout, "rlspec race: no violation in %d workloads (%d requests, %s) against %s\n", res.Checks, res.Requests, res.Duration.Round(time.Millisecond), tgt.Describe())
		fmt.Fprintf(stdout, "  seed %d (SEED=%d CHECKS=%d runs these workloads again)\n", res.SearchSeed, res.SearchSeed, res.Checks)
		if res.LinearTimeouts > 0 {
			fmt.Fprintf(stdout, "  note: porcupine timed out on %d histories (undecided, not counted as violations)\n", res.LinearTimeouts)
		}
		if printFindings(stdout, res) {
			return 1
		}
		return 0
	}
	printRaceFailure(stdout, cfg, tgt, res)
	printFindings(stdout, res)
	return 1
}

func printRaceFailure(w io.Writer, cfg raceConfig, tgt racehunt.Target, res racehunt.Result) {
	fmt.Fprintf(w, "rlspec race: VIOLATION %s after %d passing workload(s) against %s (detected in %s, %s with shrinking)\n", res.Class, res.Checks, tgt.Describe(), res.Detected.Round(time.Millisecond), res.Duration.Round(time.Millisecond))
	fmt.Fprintln(w, "violations:")
	for _, v := range res.Violations {
		fmt.Fprintf(w, "  - %s\n", v)
	}
	fmt.Fprintln(w, "shrunk workload:")
	for _, line := range strings.Split(strings.TrimRight(res.Workload.String(), "\n"), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
	fmt.Fprintln(w, "notation:")
	for _, line := range strings.Split(strings.TrimRight(racehunt.Notation, "\n"), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
	fmt.Fprintln(w, "failing run (each request with the curl command that sends it again):")
	for i := range res.History.Ops {
		op := &res.History.Ops[i]
		fmt.Fprintf(w, "  %s\n", op.String())
		if op.Ex != nil {
			fmt.Fprintf(w, "    $ %s\n", op.Ex.Curl())
		}
	}
	if cfg.Target.URL == "" && cfg.Image == "" && len(cfg.URLs) == 0 {
		fmt.Fprintln(w, "  (the embedded reference stops with rlspec: point the curl commands at your own target)")
	}
	if note := redact.CredentialNote(cfg.Target.Headers); note != "" {
		fmt.Fprintf(w, "  (%s)\n", note)
	}
	for _, n := range res.History.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	if res.Flaky {
		fmt.Fprintln(w, "note: rapid could not reproduce the failure at once, so the workload may be only partly shrunk")
	}
	if cfg.Seed != 0 {
		fmt.Fprintf(w, "seed %d: its workload violated a property in %d/%d runs\n", cfg.Seed, res.SeedReproduced, res.Repeat)
	}
	fmt.Fprintf(w, "shrunk workload reproduced %d/%d\n", res.Reproduced, res.Repeat)
	if res.Visualization != "" {
		fmt.Fprintf(w, "porcupine visualisation: %s\n", res.Visualization)
	}
	if res.Replayed != "" {
		fmt.Fprintf(w, "replayed first: %s (this target's fail file from an earlier run)\n", res.Replayed)
	}
	if res.FailFile != "" {
		fmt.Fprintf(w, "rapid fail file: %s (replayed first by the next run against this target)\n", res.FailFile)
	}
	if res.Seed != 0 {
		fmt.Fprintf(w, "seed: %d\n", res.Seed)
		fmt.Fprintf(w, "replay: %s\n", replayCommand(cfg, res.Seed))
	} else {
		fmt.Fprintln(w, "seed: none (the failure came from a stored rapid fail file; run make race again to replay it)")
	}
}

// raceSummary is the first paragraph of `rlspec race -h`.
const raceSummary = `Hunt races with generated concurrent workloads (rapid, porcupine) against
TARGET_URL, TARGET_IMAGE or, with neither, an embedded reference. Exit
status: 0 no violation, 1 a violation (with its shrunk workload and a
replay command), 2 could not run.`

// raceFlags are the target contract's settings race uses.
var raceFlags = []string{service.FlagURL, service.FlagPath, service.FlagHeaders, service.FlagBodyTemplate,
	service.FlagLimit, service.FlagWindow, service.FlagClientIPs, service.FlagDB, service.FlagSQL,
	service.FlagProfile, service.FlagKey, service.FlagKeyFormat, service.FlagMethod, service.FlagWindowAlign,
	service.FlagDialect, service.FlagResetFormat, service.FlagHeaderPrefix, service.FlagLimitedStatus, service.FlagLimitedBody,
	service.FlagBurst, service.FlagRate, service.FlagFeatures, service.FlagPenalties}

// raceSettings reads the target contract's variables race uses plus SEED,
// CHECKS, REPEAT, REPLICAS, FAULT (the embedded reference's fault, for
// self-tests) and SHRINK_TIME; flags win over the environment. -h writes
// the usage to help.
func raceSettings(args []string, getenv envflag.Getenv, help io.Writer) (raceConfig, error) {
	cfg := raceConfig{Target: service.DefaultConfig(), ReportDir: service.DefaultReportDir, MaxWait: service.DefaultMaxWait, Repeat: 20, Replicas: 1, ShrinkTime: 20 * time.Second, set: map[string]string{}}
	fs := flag.NewFlagSet("rlspec race", flag.ContinueOnError)
	cfg.Target.RegisterSome(fs, getenv, raceFlags...)
	service.ImageVar(fs, getenv, &cfg.Image)
	service.ReportDirVar(fs, getenv, &cfg.ReportDir)
	service.MaxWaitVar(fs, getenv, &cfg.MaxWait)
	var seed, checks, repeat, store, shrink string
	var faultArg faultFlag
	env := func(p *string, name, envName, usage string) {
		if v, ok := getenv(envName); ok {
			*p = v
		}
		fs.StringVar(p, name, *p, usage+" ("+envName+")")
	}
	env(&seed, "seed", "SEED", "replay the workload of this seed (0 or empty: random)")
	env(&checks, "checks", "CHECKS", "generated workloads (default 100; 1 with SEED)")
	env(&repeat, "repeat", "REPEAT", "replays of a found or seeded workload (default 20)")
	instances := service.InstancesVar(fs, getenv, "targets sharing one database: containers with TARGET_IMAGE, in-process servers otherwise (default 1)")
	fs.Var(envflag.Value(getenv, "FAULT", &faultArg), "fault", "fault of the embedded reference (self-tests; see fakeserver) (FAULT)")
	env(&store, "store", "STORE", "the embedded reference's store: sqlite (default) or postgres, a throwaway cluster")
	env(&shrink, "shrink-time", "SHRINK_TIME", "longest time spent shrinking a failing workload (default 20s)")
	fs.BoolVar(&cfg.Verbose, "v", false, "verbose")
	if err := envflag.Parse(fs, args, raceSummary, help); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := envflag.Errors(fs); err != nil {
		return cfg, err
	}
	cfg.Target.SQLDefaults(false)
	if in, err := instances(); err == nil {
		if err := chooseEmbedded(&cfg.Target, fs, getenv, len(in.URLs) > 0 || cfg.Image != ""); err != nil {
			return cfg, err
		}
	}
	if err := errors.Join(cfg.Target.Validate(), service.CheckImage(cfg.Target, cfg.Image), service.CheckMaxWait(cfg.MaxWait)); err != nil {
		return cfg, err
	}
	if cfg.Target.DB != "" && cfg.Target.SQL == "" {
		return cfg, errors.New("TARGET_DB applies to rlspec race only with TARGET_SQL (spec/004's function)")
	}
	var errs []error
	uintVar := func(s, name string, min int, dst *int) {
		if s == "" {
			return
		}
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < min {
			errs = append(errs, fmt.Errorf("%s=%q must be an integer of at least %d", name, s, min))
			return
		}
		*dst = n
	}
	if s := strings.TrimSpace(seed); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("SEED=%q is not an unsigned integer", seed))
		}
		cfg.Seed = n
	}
	uintVar(checks, "CHECKS", 1, &cfg.Checks)
	uintVar(repeat, "REPEAT", 1, &cfg.Repeat)
	in, err := instances()
	errs = append(errs, err)
	if err == nil {
		errs = append(errs, in.Check(cfg.Target, cfg.Image))
	}
	cfg.Replicas = in.Replicas
	cfg.URLs, err = cfg.Target.ResolvePath(envflag.Given(fs, getenv, service.FlagPath, "TARGET_PATH"), in.URLs)
	errs = append(errs, err)
	if cfg.Target.SQL != "" {
		v, err := faultArg.Variant(cfg.Target, store)
		errs = append(errs, err)
		cfg.Variant = v
	} else if f, err := faultArg.Fault(); err != nil {
		errs = append(errs, fmt.Errorf("FAULT: %w", err))
	} else {
		cfg.Fault = f
		// A fault of another profile's reference hunts in that profile.
		if ff, ok := faults.Lookup(f); ok && ff.Profile != "" && ff.Profile != profile.PRD && cfg.Target.Profile == profile.PRD {
			cfg.Target.Profile = profile.Name(ff.Profile)
		}
	}
	if k, err := fakeserver.ParseStoreKind(store); err != nil {
		errs = append(errs, fmt.Errorf("STORE: %w", err))
	} else {
		cfg.Store = k
	}
	if shrink != "" {
		d, err := envflag.ParseDuration(shrink)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("SHRINK_TIME=%q is not a positive duration", shrink))
		}
		cfg.ShrinkTime = d
	}
	if cfg.Target.Profile == profile.Every {
		errs = append(errs, fmt.Errorf("PROFILE=all: race hunts one profile at a time (%s)", profile.Choices(false)))
	}
	if profile.IsPRD(cfg.Target.Profile) && cfg.Target.Claims(profile.Penalties) {
		errs = append(errs, errors.New("FEATURES=penalties: race hunts penalties on the keyed profiles (PROFILE=sliding-log, fixed-window, …), not the PRD"))
	}
	if cfg.Fault != fault.None && cfg.Target.URL != "" {
		errs = append(errs, errors.New("FAULT applies to the embedded reference or the reference image only: unset TARGET_URL"))
	}
	if len(cfg.URLs) > 0 && cfg.Fault != fault.None {
		errs = append(errs, errors.New("FAULT applies to the embedded reference or the reference image only: unset TARGET_URLS"))
	}
	if err := errors.Join(errs...); err != nil {
		return cfg, err
	}
	cfg.Target = cfg.Target.ForProfile(cfg.Target.Profile)
	if err := embeddedServes(cfg); err != nil {
		return cfg, err
	}
	fs.Visit(func(f *flag.Flag) {
		if v, ok := replayVars[f.Name]; ok {
			cfg.set[v] = f.Value.String()
		}
	})
	for _, v := range replayVars {
		if s, ok := getenv(v); ok {
			if _, given := cfg.set[v]; !given {
				cfg.set[v] = s
			}
		}
	}
	return cfg, nil
}

// embeddedServes reports a profile setting the embedded reference does not
// serve (it keys by X-User-ID and answers GET), when it is the target.
func embeddedServes(cfg raceConfig) error {
	tc := cfg.Target
	if tc.URL != "" || cfg.Image != "" || len(cfg.URLs) > 0 || tc.Profile == profile.PRD {
		return nil
	}
	if tc.Key.Kind != service.KeyHeader || http.CanonicalHeaderKey(tc.Key.Name) != http.CanonicalHeaderKey(fakeserver.UserHeader) || tc.Method != http.MethodGet {
		return fmt.Errorf("the embedded reference serving PROFILE=%s keys by KEY=header:%s and answers TARGET_METHOD=GET: unset KEY and TARGET_METHOD, or give TARGET_URL", tc.Profile, fakeserver.UserHeader)
	}
	return nil
}
