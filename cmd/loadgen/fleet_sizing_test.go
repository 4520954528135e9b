package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/loadgen"
	"github.com/rlspec/rlspec/loadgen/fleet"
)

var sizing = flag.Bool("loadgen.sizing", false, "run TestSwarmSizing: closed-loop throughput of 1, 2 and 4 generators on Swarm")

// TestSwarmSizing measures, in one run, the closed-loop throughput that 1,
// 2 and 4 Swarm generators (16 connections each, 5 s after 1 s warm-up)
// get from a fresh reference container each: the figures of loadgen's
// README.
//
//	go test -run TestSwarmSizing -v ./cmd/loadgen -args -loadgen.sizing
func TestSwarmSizing(t *testing.T) {
	if !*sizing {
		t.Skip("a measurement: -args -loadgen.sizing runs it")
	}
	cli, image := swarmTest(t)
	ctx := context.Background()
	env := map[string]string{"TARGET_IMAGE": containers.ReferenceImage, "RL_LIMIT": "100000000", "RL_WINDOW": "60s",
		"RATE": "0", "CONNECTIONS": "16", "DURATION": "5s", "WARMUP": "1s", "BUCKETS": "1000",
		"GENERATORS": "4", "GENERATOR_IMAGE": image, "START_DELAY": "4s"}
	rows := []string{"generators | req/s total | req/s per generator | p50 / p99 ms (uncorrected) | start skew ms"}
	for _, n := range []int{1, 2, 4} {
		env["REPORT_DIR"] = t.TempDir()
		cfg, err := parseConfig(false, nil, envflag.Map(env), nil)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Fleet.Generators = n
		base, _, stop, err := startTarget(ctx, &cfg, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		p, err := plan(cfg, base, time.Now())
		if err != nil {
			stop()
			t.Fatal(err)
		}
		res, err := fleet.Load(ctx, fleet.Swarm{Client: cli}, p, loadgen.Meta{Mode: "closed"})
		stop()
		if err != nil {
			t.Fatal(err)
		}
		rep := loadgen.NewReport(res, nil)
		if len(rep.FailedGenerators()) > 0 || rep.Requests == 0 {
			t.Fatalf("%d generators: %s", n, rep.Summary())
		}
		rows = append(rows, fmt.Sprintf("%d | %.0f | %.0f | %.3f / %.3f | %.3f", n, rep.AchievedRate, rep.AchievedRate/float64(n),
			rep.UncorrectedLatencyMs.P50, rep.UncorrectedLatencyMs.P99, rep.StartSkewMs))
	}
	t.Log("\n" + strings.Join(rows, "\n"))
}
