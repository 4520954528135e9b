package racehunt

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/fault/faulttest"
	"github.com/rlspec/rlspec/fault/prd"
	"github.com/rlspec/rlspec/profile"
	"github.com/rlspec/rlspec/service"
)

// startWallClock starts a reference on the wall clock with a short window,
// as a live target (TARGET_URL) would be.
func startWallClock(t *testing.T, f fault.Name) string {
	t.Helper()
	return faulttest.Start(t, f, func(c *fakeserver.Config) { c.Limit, c.Window = 3, 2*time.Second })
}

func liveConfig() service.Config {
	cfg := service.DefaultConfig()
	cfg.Limit, cfg.Window = 3, 2*time.Second
	return cfg
}

// TestLiveTarget drives a target on the wall clock (the TARGET_URL path):
// boundary bursts wait for the real window to pass.
func TestLiveTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for real windows")
	}
	ctx := context.Background()
	t.Run("reference", func(t *testing.T) {
		live, err := NewLive(ctx, liveConfig(), []string{startWallClock(t, fault.None)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Hunt(ctx, live, HuntOptions{Checks: 8, Repeat: 2, NoFailFile: true, ReportDir: t.TempDir(),
			Gen: GenOptions{Boundaries: true, MaxBursts: 3}, Log: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		if res.Found {
			t.Fatalf("violation on the reference: %v\n%s", res.Violations, res.Workload)
		}
	})
	t.Run("check-then-act", func(t *testing.T) {
		live, err := NewLive(ctx, liveConfig(), []string{startWallClock(t, prd.CheckThenActName)})
		if err != nil {
			t.Fatal(err)
		}
		res, err := Hunt(ctx, live, HuntOptions{Checks: 50, Repeat: 3, NoFailFile: true, ShrinkTime: 2 * time.Second,
			ReportDir: t.TempDir(), Gen: GenOptions{MaxBursts: 2}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Found {
			t.Fatalf("check-then-act not found in %d workloads", res.Checks)
		}
	})
}

func TestUnreachableTargetCannotRun(t *testing.T) {
	cfg := liveConfig()
	_, err := NewLive(context.Background(), cfg, []string{"http://127.0.0.1:1"})
	if err == nil || !strings.Contains(err.Error(), "does not answer") {
		t.Fatalf("err = %v", err)
	}
}

// TestHuntStopsWhenTargetDies: a target that stops answering mid-hunt is
// "could not run", not a pass.
func TestHuntStopsWhenTargetDies(t *testing.T) {
	sc := fakeserver.DefaultConfig()
	sc.Limit = 3
	run, err := fakeserver.Start(sc, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	live, err := NewLive(context.Background(), liveConfig(), []string{run.URL}, WithRequestTimeout(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Close(); err != nil {
		t.Fatal(err)
	}
	_, err = Hunt(context.Background(), live, HuntOptions{Checks: 5, NoFailFile: true})
	if err == nil || !strings.Contains(err.Error(), "could not run") {
		t.Fatalf("err = %v", err)
	}
}

// Issue 24 item 4: a live token bucket (TARGET_URL) is modelled as a bucket
// of RL_BURST, not of RL_LIMIT (500 by default): the correct bucket was
// reported "Limit=3, want 500".
func TestLiveTokenBucketIsABucketOfBurst(t *testing.T) {
	sc := fakeserver.DefaultConfig()
	sc.Profile, sc.Burst, sc.Rate = profile.TokenBucket, 3, 2
	run, err := fakeserver.Start(sc, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = run.Close() })
	cfg := service.DefaultConfig().ForProfile(profile.TokenBucket)
	cfg.Burst, cfg.Rate = 3, 2
	if cfg.Limit == 3 {
		t.Fatal("RL_LIMIT is B already: the test could not tell them apart")
	}
	live, err := NewLive(context.Background(), cfg, []string{run.URL})
	if err != nil {
		t.Fatal(err)
	}
	if got := live.Limits(); len(got) != 1 || got[0] != 3 {
		t.Fatalf("live quotas %v, want [3] (RL_BURST)", got)
	}
	if !strings.Contains(live.Describe(), "RL_BURST=3") {
		t.Errorf("description %q does not name RL_BURST", live.Describe())
	}
	res, err := Hunt(context.Background(), live, HuntOptions{Checks: 4, NoFailFile: true, ReportDir: t.TempDir(),
		Gen: GenOptions{MaxBursts: 2, Profile: profile.TokenBucket}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Found {
		t.Fatalf("violation on a correct bucket: %v\n%s", res.Violations, res.Workload)
	}
}
