package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/internal/junit"
	"github.com/rlspec/rlspec/loadgen"
	"github.com/rlspec/rlspec/profile"
)

// runLoad is `loadgen run`.
func runLoad(ctx context.Context, args []string, stdout, stderr io.Writer, getenv envflag.Getenv) int {
	cfg, err := parseConfig(false, args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return cannot(stderr, "run", junit.ReportDir("", getenv), err.Error())
	}
	if cfg.Fleet.Emit != "" {
		return emitJob(cfg, stdout, stderr)
	}
	rep, err := load(ctx, cfg, stdout)
	if rep != nil && err != nil { // a fleet interrupted: its partial report
		fmt.Fprintf(stderr, "loadgen: %v\n", err)
		return verdict(rep, cfg.ReportDir, stdout, stderr)
	}
	if err != nil {
		return cannot(stderr, "run", cfg.ReportDir, err.Error())
	}
	return verdict(rep, cfg.ReportDir, stdout, stderr)
}

// cannot ends a `loadgen <what>` that could not run: one sentence on
// stderr and a junit.xml in dir with one error case saying why.
func cannot(stderr io.Writer, what, dir, msg string) int {
	fmt.Fprintf(stderr, "loadgen: cannot %s: %s\n", what, msg)
	if err := junit.WriteError(dir, "loadgen "+what, msg); err != nil {
		fmt.Fprintf(stderr, "loadgen: %v\n", err)
	}
	return 2
}

// verdict prints the report and maps it to the exit status.
func verdict(rep *loadgen.Report, dir string, stdout, stderr io.Writer) int {
	fmt.Fprint(stdout, rep.Summary())
	fmt.Fprintf(stdout, "report: %s\n", filepath.Join(dir, "load.json"))
	switch {
	case rep.Interrupted:
		return cannot(stderr, "run", dir, "interrupted before the end; figures are partial")
	case len(rep.FailedGenerators()) > 0:
		g := rep.FailedGenerators()[0]
		return cannot(stderr, "run", dir, fmt.Sprintf("%d of %d generators failed, generator %s first: %s; what they logged is in the totals", len(rep.FailedGenerators()), len(rep.Generators), g.Generator, g.Error))
	case rep.Requests == 0:
		return cannot(stderr, "run", dir, "no request was measured")
	case len(rep.Breached()) > 0:
		for _, v := range rep.Breached() {
			fmt.Fprintf(stderr, "loadgen: threshold %s breached: actual %g %s\n", v.Expr, v.Actual, v.Unit)
		}
		return 1
	}
	return 0
}

// load starts the embedded reference when no target is given, runs the
// attack (or, with GENERATORS, has the generators run it) and writes the
// reports.
func load(ctx context.Context, cfg config, stdout io.Writer) (*loadgen.Report, error) {
	if cfg.Target.SQL != "" {
		target, dialer, render, closeSQL, err := sqlTarget(ctx, cfg, stdout)
		if err != nil {
			return nil, err
		}
		defer closeSQL()
		return attack(ctx, cfg, target, dialer, render, stdout)
	}
	base, replicas, stop, err := startTarget(ctx, &cfg, stdout)
	if err != nil {
		return nil, err
	}
	defer stop()
	if cfg.Fleet.Generators > 1 && cfg.Fleet.Share == nil {
		return runFleet(ctx, cfg, base, stdout)
	}
	reqs, err := loadgen.NewRequests(cfg.Target, base, cfg.Buckets)
	if err != nil {
		return nil, err
	}
	if len(replicas) > 1 {
		return spreadAttack(ctx, cfg, replicas, reqs.Render, stdout)
	}
	dialer, err := newDialer(cfg, base)
	if err != nil {
		return nil, err
	}
	return attack(ctx, cfg, cfg.Target.Endpoint(base), dialer, reqs.Render, stdout)
}

// startTarget starts TARGET_IMAGE's instances (replicas: their URLs) or,
// without TARGET_URL, the embedded reference, and returns the base URL
// the load goes to; stop removes what it started.
func startTarget(ctx context.Context, cfg *config, stdout io.Writer) (base string, replicas []string, stop func(), err error) {
	stops := []func(){}
	stop = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
	}
	base = cfg.Target.URL
	if cfg.Image != "" {
		h, err := containers.StartForHarness(ctx, cfg.Image, &cfg.Target, containers.HarnessOptions{
			Postgres: cfg.Store == fakeserver.StorePostgres,
			Extra:    []containers.Option{containers.WithReplicas(cfg.Replicas)},
		}, stdout)
		if err != nil {
			return "", nil, stop, fmt.Errorf("start TARGET_IMAGE: %w", err)
		}
		stops = append(stops, func() {
			if err := h.Stop(); err != nil {
				fmt.Fprintf(stdout, "remove containers: %v\n", err)
			}
		})
		replicas, base = h.URLs, h.URLs[0]
	}
	if base == "" {
		cfg.Target = cfg.Target.WithEmbeddedDefaults() // the B and R the queue is modelled with
		fc := fakeserver.DefaultConfig()
		fc.Limit, fc.Window, fc.Sentinel = cfg.Target.Limit, cfg.Target.Window, cfg.Target.Sentinel
		if p := cfg.Target.Profile; p != profile.PRD {
			// The reference serves the profile keyed as KEY says.
			fc.Profile, fc.Align = profile.Name(p), profile.Align(cfg.Target.WindowAlign)
			fc.Burst, fc.Rate, fc.QueueDelay, fc.NoDelay = cfg.Target.Burst, cfg.Target.Rate, cfg.Target.Delay, cfg.Target.NoDelay()
			fc.Penalties = cfg.Target.ClaimedPenalties() // RL_PENALTIES, or the reference's tiers
		}
		srv, err := fakeserver.Start(fc, "127.0.0.1:0")
		if err != nil {
			return "", nil, stop, fmt.Errorf("start embedded reference: %w", err)
		}
		stops = append(stops, func() { srv.Close() })
		base = srv.URL
		fmt.Fprintf(stdout, "target: embedded reference at %s\n", base)
	}
	return base, replicas, stop, nil
}

// spreadAttack runs the attack with its connections spread over the
// replicas' URLs in turn (their requests name the first as Host).
func spreadAttack(ctx context.Context, cfg config, replicas []string, render func() ([][]byte, error), stdout io.Writer) (*loadgen.Report, error) {
	dialers := make([]loadgen.Dialer, len(replicas))
	endpoints := make([]string, len(replicas))
	for i, u := range replicas {
		d, err := newDialer(cfg, u)
		if err != nil {
			return nil, err
		}
		dialers[i], endpoints[i] = d, cfg.Target.Endpoint(u)
	}
	spread, err := loadgen.NewSpreadDialer(dialers...)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "target: %d replicas, connections spread over them in turn\n", len(replicas))
	return attack(ctx, cfg, strings.Join(endpoints, ", "), spread, render, stdout)
}

// attack runs the load on dialer's connections and writes the reports.
func attack(ctx context.Context, cfg config, target string, dialer loadgen.Dialer, render func() ([][]byte, error), stdout io.Writer) (*loadgen.Report, error) {
	if err := os.MkdirAll(cfg.ReportDir, 0o755); err != nil {
		return nil, fmt.Errorf("report dir: %w", err)
	}
	hlog, err := os.Create(filepath.Join(cfg.ReportDir, "load.hlog"))
	if err != nil {
		return nil, fmt.Errorf("create load.hlog: %w", err)
	}
	defer hlog.Close()
	opts, err := queueOptions(cfg.Target)
	if err != nil {
		return nil, err
	}
	opts = append(append(opts, loadgen.WithRate(cfg.Rate)), cfg.Fleet.attackOptions()...)
	att, err := loadgen.NewAttacker(dialer, render, append(opts,
		loadgen.WithConnections(cfg.Connections),
		loadgen.WithDuration(cfg.Duration),
		loadgen.WithWarmup(cfg.Warmup),
		loadgen.WithHlog(hlog),
		loadgen.WithMeta(loadgen.Meta{Target: target, Buckets: cfg.Buckets, Generator: cfg.Fleet.generator(), Penalties: readsPenalties(cfg)}),
		loadgen.WithProgress(func(p loadgen.Progress) {
			if p.Warmup {
				fmt.Fprintf(stdout, "[%5.1fs] warming up\n", p.Elapsed.Seconds())
				return
			}
			fmt.Fprintf(stdout, "[%5.1fs] throughput %8.1f req/s (last interval)  p95 so far %.3f ms  errors %d of %d measured\n", p.Elapsed.Seconds(), p.Rate, p.P95, p.Errors, p.Requests)
		}),
	)...)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stdout, "load: %s for %s after %s warm-up\n", describe(cfg), cfg.Duration, cfg.Warmup)
	res, err := att.Attack(ctx)
	if err != nil {
		return nil, err
	}
	if err := hlog.Close(); err != nil {
		return nil, fmt.Errorf("write load.hlog: %w", err)
	}
	rep := loadgen.NewReport(res, cfg.Thresholds)
	if err := rep.WriteFiles(cfg.ReportDir); err != nil {
		return nil, err
	}
	return rep, nil
}

func describe(cfg config) string {
	s := fmt.Sprintf("open loop at %g req/s", cfg.Rate)
	if cfg.Rate == 0 {
		s = fmt.Sprintf("closed loop on %d connections", cfg.Connections)
	}
	if cfg.Image != "" {
		s += fmt.Sprintf(", TARGET_IMAGE=%s REPLICAS=%d STORE=%s", cfg.Image, cfg.Replicas, cfg.Store)
	}
	if p := cfg.Target.Profile; p != profile.PRD {
		s += fmt.Sprintf(", PROFILE=%s (%s, KEY=%s)", p, cfg.Target.Method, cfg.Target.Key)
	}
	return s
}

// runMerge is `loadgen merge a.hlog b.hlog …`: one report of the combined
// histograms, thresholds evaluated on it.
func runMerge(args []string, stdout, stderr io.Writer, getenv envflag.Getenv) int {
	cfg, err := parseConfig(true, args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		return cannot(stderr, "merge", junit.ReportDir("", getenv), err.Error())
	}
	dir := cfg.ReportDir
	res, err := loadgen.MergeFiles(cfg.Files, time.Second)
	if err != nil {
		return cannot(stderr, "merge", dir, err.Error())
	}
	rep := loadgen.NewReport(res, cfg.Thresholds)
	rep.Sources = cfg.Files
	if err := rep.WriteFiles(cfg.ReportDir); err != nil {
		return cannot(stderr, "merge", dir, err.Error())
	}
	if err := writeMergedHlog(filepath.Join(cfg.ReportDir, "load.hlog"), res, cfg.Files); err != nil {
		return cannot(stderr, "merge", dir, err.Error())
	}
	return verdict(rep, cfg.ReportDir, stdout, stderr)
}

func writeMergedHlog(path string, res *loadgen.Result, sources []string) error {
	for _, s := range sources {
		if a, err1 := filepath.Abs(s); err1 == nil {
			if b, err2 := filepath.Abs(path); err2 == nil && a == b {
				return fmt.Errorf("merged log %s would overwrite an input; set REPORT_DIR elsewhere", path)
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("create %s: %w", path, err)
	}
	if err := loadgen.WriteHlog(f, res); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Close()
}

// readsPenalties: penalties are claimed, so 429 bodies are read for the
// penalty marker and counted apart (not for TARGET_SQL, whose function
// answers no body).
func readsPenalties(cfg config) bool {
	return cfg.Target.Claims(profile.Penalties) && cfg.Target.SQL == ""
}

// newDialer is the lean HTTP dialer of base, reading 429 bodies when
// penalties are claimed.
func newDialer(cfg config, base string) (*loadgen.HTTPDialer, error) {
	d, err := loadgen.NewHTTPDialer(base, loadgen.DefaultTimeout)
	if err != nil {
		return nil, err
	}
	if readsPenalties(cfg) {
		d.ReadPenalties()
	}
	return d, nil
}
