package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/containers/containerstest"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/loadgen"
	"github.com/rlspec/rlspec/loadgen/fleet"
)

// swarmTest is what a Swarm test needs: a Docker client on a swarm
// manager (a one-node swarm made here when the engine was in none) and a
// harness image of this tree's loadgen. The swarm and the images are made
// once for the package's tests (building the image is most of a test's
// time) and undone by TestMain.
func swarmTest(t *testing.T) (*client.Client, string) {
	t.Helper()
	t.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	containerstest.RequireDocker(t)
	swarm.once.Do(swarm.setUp)
	if swarm.skip != "" {
		t.Skip(swarm.skip)
	}
	if swarm.err != nil {
		t.Fatal(swarm.err)
	}
	return swarm.cli, swarmHarnessTag
}

// swarmHarnessTag is the harness image the Swarm tests build.
const swarmHarnessTag = "rlspec-fleet-test:latest"

// swarmState is the Swarm tests' shared set-up: made by the first test
// that needs it, undone by tearDown.
type swarmState struct {
	once   sync.Once
	cli    *client.Client
	joined bool   // the swarm was made here: leave it
	built  bool   // the harness image was built here: remove it
	skip   string // why the tests cannot run here
	err    error
}

var swarm swarmState

func (sw *swarmState) setUp() {
	ctx := context.Background()
	cli, err := client.New(client.FromEnv)
	if err != nil {
		sw.skip = "docker client: " + err.Error()
		return
	}
	sw.cli = cli
	info, err := cli.Info(ctx, client.InfoOptions{})
	if err != nil {
		sw.skip = "docker info: " + err.Error()
		return
	}
	if !info.Info.Swarm.ControlAvailable {
		if info.Info.Swarm.NodeID != "" {
			sw.skip = "this engine is a swarm worker, not a manager"
			return
		}
		if _, err := cli.SwarmInit(ctx, client.SwarmInitOptions{ListenAddr: "127.0.0.1:2377", AdvertiseAddr: "127.0.0.1"}); err != nil {
			sw.skip = "docker swarm init: " + err.Error()
			return
		}
		sw.joined = true
	}
	if _, err := cli.ImageInspect(ctx, containers.ReferenceImage); err != nil {
		if err := containers.BuildReferenceImage(ctx, containers.WithBuildDir("../..")); err != nil {
			sw.err = fmt.Errorf("build %s: %w", containers.ReferenceImage, err)
			return
		}
	}
	if err := containers.BuildHarnessImage(ctx, swarmHarnessTag, containers.WithBuildDir("../..")); err != nil {
		sw.err = fmt.Errorf("build %s: %w", swarmHarnessTag, err)
		return
	}
	sw.built = true
}

// tearDown leaves the swarm made here and removes the harness image; it
// reports what it could not undo.
func (sw *swarmState) tearDown() error {
	if sw.cli == nil {
		return nil
	}
	defer sw.cli.Close()
	var errs []error
	if sw.built {
		if err := containers.RemoveImage(context.Background(), swarmHarnessTag); err != nil {
			errs = append(errs, fmt.Errorf("remove %s: %w", swarmHarnessTag, err))
		}
	}
	if sw.joined {
		if _, err := sw.cli.SwarmLeave(context.Background(), client.SwarmLeaveOptions{Force: true}); err != nil {
			errs = append(errs, fmt.Errorf("leave the swarm made for the tests: %w", err))
		}
	}
	return errors.Join(errs...)
}

// TestMain undoes the Swarm tests' set-up after every test ran.
func TestMain(m *testing.M) {
	code := m.Run()
	if err := swarm.tearDown(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if code == 0 {
			code = 1
		}
	}
	os.Exit(code)
}

// TestSwarmThreeGenerators: three generators on a Swarm service put one
// open-loop load on the reference image; the merged load.json is what
// their three logs add up to (requests, statuses, percentiles of the
// merged histogram), every generator is listed with its start lag, the
// start skew between them is reported, and the service is gone afterwards.
func TestSwarmThreeGenerators(t *testing.T) {
	cli, image := swarmTest(t)
	dir := t.TempDir()
	env := map[string]string{
		"TARGET_IMAGE": containers.ReferenceImage, "RL_LIMIT": "1000000", "RL_WINDOW": "60s",
		"GENERATORS": "3", "GENERATOR_IMAGE": image, "START_DELAY": "5s",
		"RATE": "300", "DURATION": "3s", "WARMUP": "1s", "BUCKETS": "30",
		"THRESHOLDS": "errors<1%", "REPORT_DIR": dir,
	}
	var out, errb bytes.Buffer
	code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(env))
	t.Logf("stdout:\n%s\nstderr:\n%s", out.String(), errb.String())
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	rep := readReport(t, dir)

	// What the generators' own logs add up to.
	sum := loadgen.NewHistograms()
	for i := range 3 {
		f, err := os.Open(filepath.Join(fleet.GeneratorDir(dir, i), "load.hlog"))
		if err != nil {
			t.Fatal(err)
		}
		l, err := loadgen.ReadHlog(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var n int64
		for _, iv := range l.Intervals {
			sum.Merge(iv.H)
			n += iv.H.Requests()
		}
		if n < 200 || n > 400 { // 100 req/s for 3 s each
			t.Errorf("generator %d logged %d requests, want about 300", i, n)
		}
		if l.Generator.StartAt.IsZero() || l.Generator.Generator == "" {
			t.Errorf("generator %d: log without its start comment: %+v", i, l.Generator)
		}
	}
	if rep.Requests != sum.Requests() {
		t.Errorf("load.json requests %d, logs add up to %d", rep.Requests, sum.Requests())
	}
	wantStatus := loadgen.StatusCountsOf(sum.Status)
	if rep.ByStatus.OK != wantStatus.OK || rep.ByStatus.RateLimited != wantStatus.RateLimited || rep.ByStatus.Errors() != wantStatus.Errors() {
		t.Errorf("load.json statuses %+v, logs add up to %+v", rep.ByStatus, wantStatus)
	}
	if want := loadgen.PercentilesOf(sum.Corrected); rep.LatencyMs != want {
		t.Errorf("load.json latency %+v, merged logs %+v", rep.LatencyMs, want)
	}
	if want := loadgen.PercentilesOf(sum.Uncorrected); rep.UncorrectedLatencyMs != want {
		t.Errorf("load.json uncorrected latency %+v, merged logs %+v", rep.UncorrectedLatencyMs, want)
	}
	if len(rep.Generators) != 3 {
		t.Fatalf("load.json lists %d generators, want 3", len(rep.Generators))
	}
	var total int64
	for _, g := range rep.Generators {
		total += g.Requests
		if g.Error != "" || g.StartAt.IsZero() {
			t.Errorf("generator %+v", g)
		}
	}
	if total != rep.Requests {
		t.Errorf("generators' requests add up to %d, load.json says %d", total, rep.Requests)
	}
	if rep.StartSkewMs <= 0 || rep.StartSkewMs > 5000 {
		t.Errorf("start skew %.3f ms not reported (or more than the start delay)", rep.StartSkewMs)
	}
	if rep.ScheduledRate != 300 || rep.Buckets != 30 {
		t.Errorf("load.json scheduled rate %g buckets %d, want the totals 300 and 30", rep.ScheduledRate, rep.Buckets)
	}
	services, err := cli.ServiceList(context.Background(), client.ServiceListOptions{Filters: make(client.Filters).Add("label", fleet.Label)})
	if err != nil || len(services.Items) != 0 {
		t.Errorf("services left behind: %v, %v", services.Items, err)
	}
}

// TestSwarmDeadGenerator: one of two generators is killed once it has
// logged a request; the run exits 2 naming it, load.json lists it
// with its exit status, and the requests it logged before dying are in the
// totals (they equal what the two logs add up to).
func TestSwarmDeadGenerator(t *testing.T) {
	cli, image := swarmTest(t)
	dir := t.TempDir()
	env := map[string]string{
		"GENERATORS": "2", "GENERATOR_IMAGE": image, "START_DELAY": "3s",
		"RATE": "100", "DURATION": "6s", "WARMUP": "0s", "BUCKETS": "10", "THRESHOLDS": "", "REPORT_DIR": dir,
	}
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		var out, errb bytes.Buffer
		code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(env))
		done <- result{code, out.String(), errb.String()}
	}()
	victim := filepath.Join(fleet.GeneratorDir(dir, 1), "load.hlog")
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	killed := false
	for !killed {
		select {
		case r := <-done:
			t.Fatalf("ended before a generator was killed: exit %d\n%s\n%s", r.code, r.out, r.err)
		case <-tick.C:
		}
		if !loggedRequests(victim) {
			continue
		}
		list, err := cli.ContainerList(context.Background(), client.ContainerListOptions{Filters: make(client.Filters).Add("label", fleet.Label)})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range list.Items {
			if strings.HasSuffix(c.Labels["com.docker.swarm.task.name"], ".2."+c.Labels["com.docker.swarm.task.id"]) {
				if _, err := cli.ContainerKill(context.Background(), c.ID, client.ContainerKillOptions{}); err != nil {
					t.Fatal(err)
				}
				killed = true
			}
		}
	}
	r := <-done
	t.Logf("stdout:\n%s\nstderr:\n%s", r.out, r.err)
	if r.code != 2 || !strings.Contains(r.err, "1 of 2 generators failed, generator 1/2") {
		t.Fatalf("exit %d; want 2 naming generator 1/2", r.code)
	}
	rep := readReport(t, dir)
	if len(rep.Generators) != 2 || rep.Generators[0].Error != "" || !strings.Contains(rep.Generators[1].Error, "exit status 137") {
		t.Fatalf("generators %+v", rep.Generators)
	}
	if rep.Generators[1].Requests == 0 || rep.Requests != rep.Generators[0].Requests+rep.Generators[1].Requests {
		t.Errorf("requests %d; generators %d + %d: the dead one's must count", rep.Requests, rep.Generators[0].Requests, rep.Generators[1].Requests)
	}
	if rep.Pass {
		t.Error("a run with a dead generator passes")
	}
}

// loggedRequests reports whether the interval log at path counts a
// request yet (an interval may log only the lag of requests still in flight).
func loggedRequests(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	l, err := loadgen.ReadHlog(f)
	if err != nil {
		return false
	}
	for _, iv := range l.Intervals {
		if iv.H.Requests() > 0 {
			return true
		}
	}
	return false
}

// readReport reads dir/load.json.
func readReport(t *testing.T, dir string) loadgen.Report {
	t.Helper()
	var rep loadgen.Report
	b, err := os.ReadFile(filepath.Join(dir, "load.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}
