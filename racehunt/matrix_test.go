package racehunt

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

var matrix = flag.Bool("racehunt.matrix", false, "run the 20-seed detection matrix against every concurrency fault (minutes)")

// TestRaceMatrix: each concurrency fault must be found within the default
// budget (CHECKS=100) in 20 of 20 runs with different seeds. It reports the
// median time to detection and how often the printed replay command (SEED,
// REPEAT=20) reproduced. Run with:
//
//	go test ./racehunt -run TestRaceMatrix -racehunt.matrix -timeout 30m -v
func TestRaceMatrix(t *testing.T) {
	if !*matrix {
		t.Skip("the 20-seed matrix runs with -racehunt.matrix (TestRaceProperties covers each fault once)")
	}
	ctx := context.Background()
	var table []string
	type row struct {
		fault    fault.Name
		cfg      service.Config
		replicas int
	}
	var rows []row
	for _, tc := range concurrencyFaults {
		rows = append(rows, row{tc.fault, service.DefaultConfig(), tc.replicas})
	}
	for _, tc := range profileFaults {
		rows = append(rows, row{tc.fault, tc.cfg, 1})
	}
	for _, tc := range rows {
		t.Run(string(tc.fault), func(t *testing.T) {
			e := startProfile(t, tc.cfg, tc.fault, tc.replicas)
			gen := GenOptions{Boundaries: true, Profile: tc.cfg.Profile}
			var detect []time.Duration
			var workloads []int
			var seedRepro, shrunkRepro []int
			found := 0
			for i := 0; i < 20; i++ {
				seed := uint64(0x5eed0000 + 7919*i)
				// A different base seed per run, as `make race` picks a
				// random one; rapid derives each workload's seed from it.
				res, err := Hunt(ctx, e, HuntOptions{Checks: 100, SearchSeed: seed, Repeat: 20, ShrinkTime: time.Second,
					NoFailFile: true, ReportDir: t.TempDir(), Gen: gen})
				if err != nil {
					t.Fatal(err)
				}
				if !res.Found {
					t.Errorf("run %d (base seed %d): not found in %d workloads", i, seed, res.Checks)
					continue
				}
				found++
				detect = append(detect, res.Detected)
				workloads = append(workloads, res.Checks+1)
				shrunkRepro = append(shrunkRepro, res.Reproduced)
				// The printed command: make race SEED=<seed> REPEAT=20.
				rep, err := Hunt(ctx, e, HuntOptions{Seed: res.Seed, Repeat: 20, ShrinkTime: time.Second, ReportDir: t.TempDir(), Gen: gen})
				if err != nil {
					t.Fatal(err)
				}
				seedRepro = append(seedRepro, rep.SeedReproduced)
			}
			slices.Sort(detect)
			slices.Sort(workloads)
			slices.Sort(seedRepro)
			slices.Sort(shrunkRepro)
			line := fmt.Sprintf("%-20s found %2d/20  median detection %8s (max %8s)  median workloads %d (max %d)  replay command reproduced median %d/20 (min %d/20)  shrunk workload median %d/20 (min %d/20)",
				tc.fault, found, median(detect).Round(time.Millisecond), detect[len(detect)-1].Round(time.Millisecond),
				workloads[len(workloads)/2], workloads[len(workloads)-1], seedRepro[len(seedRepro)/2], seedRepro[0], shrunkRepro[len(shrunkRepro)/2], shrunkRepro[0])
			t.Log(line)
			table = append(table, line)
		})
	}
	t.Log("\n" + strings.Join(table, "\n"))
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	return ds[len(ds)/2]
}

// TestReferenceCleanMatrix: the reference serving each design of issue 25
// stays clean over 20 hunts of CHECKS=100 with different base seeds. Run
// with:
//
//	go test ./racehunt -run TestReferenceCleanMatrix -racehunt.matrix -timeout 30m -v
func TestReferenceCleanMatrix(t *testing.T) {
	if !*matrix {
		t.Skip("the 20-seed clean matrix runs with -racehunt.matrix (TestProfileRaceProperties covers each profile once)")
	}
	for _, cfg := range []service.Config{
		profileConfig(profile.SlidingWindowCounter, ""),
		profileConfig(profile.LeakyBucket, ""),
		profileConfig(profile.FixedWindow, profile.AlignKeyGrid),
	} {
		t.Run(string(cfg.Profile)+"/"+string(cfg.WindowAlign), func(t *testing.T) {
			e := startProfile(t, cfg, fault.None, 1)
			clean := 0
			for i := range 20 {
				res, err := Hunt(context.Background(), e, HuntOptions{Checks: 100, SearchSeed: uint64(0x5eed0000 + 7919*i), Repeat: 5,
					ShrinkTime: time.Second, NoFailFile: true, ReportDir: t.TempDir(), Gen: GenOptions{Boundaries: true, Profile: cfg.Profile}})
				if err != nil {
					t.Fatal(err)
				}
				if res.Found {
					t.Errorf("run %d: the reference was found at fault: %+v", i, res.Violations)
					continue
				}
				clean++
			}
			t.Logf("%s %s: clean in %d/20 hunts of 100 workloads", cfg.Profile, cfg.WindowAlign, clean)
		})
	}
}
