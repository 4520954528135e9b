package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/moby/moby/client"
	"github.com/rlspec/rlspec/loadgen"
	"github.com/rlspec/rlspec/loadgen/fleet"
	"github.com/rlspec/rlspec/service"
)

// plan is the load of cfg as GENERATORS generators of base, starting
// START_DELAY from now (or at START_AT).
func plan(cfg config, base string, now time.Time) (fleet.Plan, error) {
	var id [4]byte
	if _, err := rand.Read(id[:]); err != nil {
		return fleet.Plan{}, fmt.Errorf("plan name: %w", err)
	}
	dir, err := filepath.Abs(cfg.ReportDir)
	if err != nil {
		return fleet.Plan{}, fmt.Errorf("report dir: %w", err)
	}
	start := cfg.Fleet.StartAt
	if start.IsZero() {
		start = now.Add(cfg.Fleet.StartDelay).Truncate(time.Millisecond)
	}
	args := append(append([]string(nil), cfg.Fleet.Forward...),
		"-"+service.FlagURL+"="+base, "-"+service.FlagClientIPs+"="+string(cfg.Target.ClientIPs))
	return fleet.Plan{
		Name:       "rlspec-load-" + hex.EncodeToString(id[:]),
		Image:      cfg.Fleet.Image,
		Generators: cfg.Fleet.Generators,
		StartAt:    start,
		Args:       args,
		ReportDir:  dir,
		// Every generator's schedule ends at the same instant; a request
		// may then take its timeout, and a replica a minute to be reported.
		Deadline: start.Add(cfg.Warmup + cfg.Duration + loadgen.DefaultTimeout + time.Minute),
	}, nil
}

// runFleet has GENERATORS generators put the load on base as a Docker Swarm
// service, merges their logs and writes the reports into REPORT_DIR (each
// generator's own under generator-<i>/).
func runFleet(ctx context.Context, cfg config, base string, stdout io.Writer) (*loadgen.Report, error) {
	p, err := plan(cfg, base, time.Now())
	if err != nil {
		return nil, err
	}
	cli, err := client.New(client.FromEnv)
	if err != nil {
		return nil, fmt.Errorf("docker: %w", err)
	}
	defer cli.Close()
	fmt.Fprintf(stdout, "load: %s for %s after %s warm-up, %d generators on Docker Swarm\n", describe(cfg), cfg.Duration, cfg.Warmup, p.Generators)
	conns := cfg.Connections
	if conns == 0 {
		conns = loadgen.DefaultOpenConnections
	}
	meta := loadgen.Meta{Target: cfg.Target.Endpoint(base), Mode: "open", Rate: cfg.Rate, Connections: conns * p.Generators, Buckets: cfg.Buckets, Warmup: cfg.Warmup, Duration: cfg.Duration}
	if cfg.Rate == 0 {
		meta.Mode = "closed"
	}
	res, runErr := fleet.Load(ctx, fleet.Swarm{Client: cli, Log: stdout}, p, meta)
	if res == nil {
		return nil, runErr
	}
	rep := loadgen.NewReport(res, cfg.Thresholds)
	if err := rep.WriteFiles(cfg.ReportDir); err != nil {
		return nil, err
	}
	var sources []string
	for i := range p.Generators {
		sources = append(sources, filepath.Join(fleet.GeneratorDir(p.ReportDir, i), "load.hlog"))
	}
	if err := writeMergedHlog(filepath.Join(cfg.ReportDir, "load.hlog"), res, sources); err != nil {
		return nil, err
	}
	return rep, runErr
}

// emitJob is `loadgen run -emit k8s`: the load as a Kubernetes Indexed Job
// manifest on stdout.
func emitJob(cfg config, stdout, stderr io.Writer) int {
	p, err := plan(cfg, cfg.Target.URL, time.Now())
	if err != nil {
		return cannot(stderr, "emit", cfg.ReportDir, err.Error())
	}
	b, err := fleet.Job(p)
	if err != nil {
		return cannot(stderr, "emit", cfg.ReportDir, err.Error())
	}
	fmt.Fprintf(stdout, "# %d generators of %s, starting %s; reports on the claim %s, one directory per pod;\n# merge them with: loadgen merge -report-dir merged generator-*/load.hlog\n",
		p.Generators, cfg.Target.URL, p.StartAt.Format(time.RFC3339), fleet.ClaimName(p))
	_, err = stdout.Write(b)
	if err != nil {
		fmt.Fprintf(stderr, "loadgen: %v\n", err)
		return 2
	}
	return 0
}
