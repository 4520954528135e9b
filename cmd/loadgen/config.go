package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/loadgen"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// config is everything `loadgen run` needs, filled once from flags over
// environment over defaults.
type config struct {
	Target      service.Config
	Image       string               // TARGET_IMAGE: started instead of TARGET_URL
	Replicas    int                  // REPLICAS: TARGET_IMAGE's instances, the connections spread over them
	Store       fakeserver.StoreKind // STORE: what they share, a volume (sqlite) or a throwaway PostgreSQL
	ReportDir   string               // REPORT_DIR
	Rate        float64
	Duration    time.Duration
	Warmup      time.Duration
	Connections int
	Buckets     int
	Thresholds  []loadgen.Threshold
	Files       []string // merge: the interval logs
	Fleet       fleetConfig
}

// Summaries: the first paragraph of each subcommand's -h.
const (
	runSummary = `Put open-loop load (RATE requests per second; RATE=0: closed loop on
CONNECTIONS connections) on TARGET_URL, TARGET_IMAGE or, with neither, an
embedded reference, and check THRESHOLDS. Writes load.json, load.html,
load.png and load.hlog under REPORT_DIR. Exit status: 0 every threshold held,
1 one was breached, 2 the load could not run.`
	mergeSummary = `Combine the interval logs (load.hlog) of several loadgen runs, given as
arguments (loadgen merge a/load.hlog b/load.hlog), into one report under
REPORT_DIR, and check THRESHOLDS.`
)

// runFlags are the target contract's settings loadgen run uses.
var runFlags = []string{service.FlagURL, service.FlagPath, service.FlagHeaders, service.FlagBodyTemplate,
	service.FlagLimit, service.FlagWindow, service.FlagClientIPs, service.FlagDB, service.FlagSQL,
	service.FlagProfile, service.FlagKey, service.FlagKeyFormat, service.FlagMethod, service.FlagWindowAlign, service.FlagBurst, service.FlagRate,
	service.FlagLBMode, service.FlagDelay, service.FlagFeatures, service.FlagPenalties}

// parseConfig fills a config from args and getenv and validates it: the
// flags of `loadgen run`, or with merge those of `loadgen merge`. -h writes
// the usage to help and returns flag.ErrHelp.
func parseConfig(merge bool, args []string, getenv envflag.Getenv, help io.Writer) (config, error) {
	c := config{Target: service.DefaultConfig(), ReportDir: service.DefaultReportDir}
	name, summary, own := "loadgen run", runSummary, runFlags
	if merge {
		name, summary, own = "loadgen merge", mergeSummary, nil
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	c.Target.RegisterSome(fs, getenv, own...)
	if !merge {
		service.ImageVar(fs, getenv, &c.Image)
	}
	service.ReportDirVar(fs, getenv, &c.ReportDir)
	var errs []error
	env := func(key, def string) string {
		if v, ok := getenv(key); ok {
			return v
		}
		return def
	}
	thresholds := fs.String("thresholds", env("THRESHOLDS", loadgen.DefaultThresholds), "';'-separated pass conditions, e.g. p95<3ms;p99<5ms;errors<0.1% (THRESHOLDS)")
	rate, duration, warmup := new(string), new(string), new(string)
	conns, buckets := new(string), new(string)
	replicas, store := new(string), new(string)
	var ff fleetFlags
	if !merge {
		ff = registerFleet(fs, getenv)
		rate = fs.String("rate", env("RATE", strconv.Itoa(loadgen.DefaultRate)), "requests per second, open loop; 0: closed loop on CONNECTIONS connections (RATE)")
		duration = fs.String("duration", env("DURATION", loadgen.DefaultDuration.String()), "measured duration (DURATION)")
		warmup = fs.String("warmup", env("WARMUP", loadgen.DefaultWarmup.String()), "warm-up before measuring, excluded from every figure (WARMUP)")
		conns = fs.String("connections", env("CONNECTIONS", "0"), "closed loop: connections; open loop: connection pool size, 0 = 16 (CONNECTIONS)")
		buckets = fs.String("buckets", env("BUCKETS", strconv.Itoa(loadgen.DefaultBuckets)), "distinct device buckets the load is spread over (BUCKETS)")
		replicas = fs.String("replicas", env("REPLICAS", "1"), "TARGET_IMAGE: instances started, sharing STORE; the connections are spread over them (REPLICAS)")
		store = fs.String("store", env("STORE", string(fakeserver.StoreSQLite)), "TARGET_IMAGE: the instances' store, sqlite (a shared volume) or postgres (a throwaway PostgreSQL on the Docker gateway) (STORE)")
	}
	if err := envflag.Parse(fs, args, summary, help); err != nil {
		return c, err
	}
	if err := envflag.Errors(fs); err != nil {
		errs = append(errs, err)
	}
	var err error
	if c.Thresholds, err = loadgen.ParseThresholds(*thresholds); err != nil {
		errs = append(errs, err)
	}
	if merge {
		if fs.NArg() == 0 {
			errs = append(errs, errors.New("no interval log given (loadgen merge a.hlog b.hlog …)"))
		}
		c.Files = fs.Args()
		return c, errors.Join(errs...)
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if c.Rate, err = strconv.ParseFloat(strings.TrimSpace(*rate), 64); err != nil || c.Rate < 0 {
		errs = append(errs, fmt.Errorf("RATE=%q is not a non-negative number of requests per second", *rate))
	}
	if c.Duration, err = envflag.ParseDuration(*duration); err != nil || c.Duration <= 0 {
		errs = append(errs, fmt.Errorf("DURATION=%q is not a positive duration", *duration))
	}
	if c.Warmup, err = envflag.ParseDuration(*warmup); err != nil {
		errs = append(errs, fmt.Errorf("WARMUP=%q is not a duration", *warmup))
	}
	if c.Connections, err = strconv.Atoi(strings.TrimSpace(*conns)); err != nil || c.Connections < 0 {
		errs = append(errs, fmt.Errorf("CONNECTIONS=%q is not a non-negative integer", *conns))
	}
	if c.Buckets, err = strconv.Atoi(strings.TrimSpace(*buckets)); err != nil || c.Buckets < 1 {
		errs = append(errs, fmt.Errorf("BUCKETS=%q is not a positive integer", *buckets))
	}
	if c.Rate == 0 && c.Connections == 0 {
		errs = append(errs, errors.New("RATE=0 (closed loop) needs CONNECTIONS of at least 1"))
	}
	if c.Replicas, err = strconv.Atoi(strings.TrimSpace(*replicas)); err != nil || c.Replicas < 1 {
		errs = append(errs, fmt.Errorf("REPLICAS=%q is not a positive integer", *replicas))
	}
	if c.Store, err = fakeserver.ParseStoreKind(*store); err != nil {
		errs = append(errs, fmt.Errorf("STORE: %w", err))
	}
	errs = append(errs, c.checkImageStore())
	c.Target.SQLDefaults(false)
	_, err = c.Target.ResolvePath(envflag.Given(fs, getenv, service.FlagPath, "TARGET_PATH"), nil)
	errs = append(errs, err)
	if err := c.Target.Validate(); err != nil {
		errs = append(errs, err)
	}
	if err := service.CheckImage(c.Target, c.Image); err != nil {
		errs = append(errs, err)
	}
	if c.Target.Profile == profile.Every {
		errs = append(errs, errors.New("PROFILE=all: load runs one profile at a time"))
	}
	c.Target = c.Target.ForProfile(c.Target.Profile)
	if c.Target.DB != "" && c.Target.SQL == "" {
		errs = append(errs, errors.New("TARGET_DB applies to loadgen only with TARGET_SQL (spec/004's function)"))
	}
	if errors.Join(errs...) == nil {
		errs = append(errs, ff.parse(fs, getenv, &c))
	}
	return c, errors.Join(errs...)
}

// checkImageStore refuses REPLICAS and STORE=postgres without TARGET_IMAGE
// (they are how its instances are started), STORE=postgres where the
// throwaway PostgreSQL cannot be started.
func (c config) checkImageStore() error {
	var errs []error
	if c.Image == "" {
		if c.Replicas > 1 {
			errs = append(errs, fmt.Errorf("REPLICAS=%d starts instances of TARGET_IMAGE: set TARGET_IMAGE", c.Replicas))
		}
		if c.Store == fakeserver.StorePostgres {
			errs = append(errs, errors.New("STORE=postgres applies to TARGET_IMAGE (its instances on a throwaway PostgreSQL): set TARGET_IMAGE"))
		}
		return errors.Join(errs...)
	}
	if c.Store == fakeserver.StorePostgres {
		if _, err := pgcluster.BinDir(); err != nil {
			errs = append(errs, fmt.Errorf("STORE=postgres starts a throwaway PostgreSQL for TARGET_IMAGE's instances: %w", err))
		}
	}
	return errors.Join(errs...)
}
