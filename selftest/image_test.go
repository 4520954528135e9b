package selftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/fault"
	"github.com/rlspec/rlspec/httpclient"
	"github.com/rlspec/rlspec/internal/testctx"
	"github.com/rlspec/rlspec/racehunt"
	"github.com/rlspec/rlspec/service"
)

// requireImage builds rlspec-reference:latest, or skips with a one-line
// reason when no Docker engine answers.
func requireImage(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and starts containers")
	}
	t.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true")
	ctx := testctx.Context(t)
	if err := containers.Available(ctx); err != nil {
		line, _, _ := strings.Cut(err.Error(), "\n")
		t.Skip("docker not available: " + line)
	}
	if err := containers.BuildReferenceImage(ctx, containers.WithBuildDir("..")); err != nil {
		t.Fatalf("build %s: %v", containers.ReferenceImage, err)
	}
	return containers.ReferenceImage
}

// TestProcessCacheAcrossReplicas: the process-cache fault (a per-process
// quota cache) is invisible with one container and caught by the race
// hunter with three containers sharing one database volume — the real
// symptom the embedded matrix only approximates with in-process servers.
func TestProcessCacheAcrossReplicas(t *testing.T) {
	img := requireImage(t)
	gw, err := containers.DockerGateway(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const limit = 3
	hunt := func(t *testing.T, fault fault.Name, replicas int) racehunt.Result {
		ctx := context.Background()
		ct, err := containers.StartTarget(ctx, img,
			containers.WithFault(string(fault)),
			containers.WithReplicas(replicas),
			containers.WithLimit(limit), containers.WithWindow(time.Minute),
			containers.WithEnv("TRUSTED_PROXIES", gw.String()+"/32"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := ct.Terminate(context.Background()); err != nil {
				t.Errorf("terminate: %v", err)
			}
		})
		if ct.Gateway.IsValid() && ct.Gateway != gw {
			t.Fatalf("containers see requests from %s, not %s", ct.Gateway, gw)
		}
		cfg := service.DefaultConfig()
		// Every request reaches the containers from the gateway: client
		// addresses travel in X-Forwarded-For.
		cfg.Limit, cfg.Window, cfg.ClientIPs = limit, time.Minute, httpclient.XFF
		live, err := racehunt.NewLive(ctx, cfg, ct.URLs)
		if err != nil {
			t.Fatal(err)
		}
		res, err := racehunt.Hunt(ctx, live, racehunt.HuntOptions{Checks: 40, Repeat: 1, ShrinkTime: time.Second,
			Name: "selftest-image", NoFailFile: true, ReportDir: t.TempDir(), Log: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	t.Run("one replica", func(t *testing.T) {
		res := hunt(t, fault.ProcessCache, 1)
		if res.Found {
			t.Fatalf("one replica: %s found, want none: %v\n%s", res.Class, res.Violations, res.Workload)
		}
		if res.Checks != 40 {
			t.Fatalf("ran %d workloads, want 40", res.Checks)
		}
	})
	// The control: the correct reference on the same three replicas is
	// clean, so what the hunter finds below is the fault, not the setup.
	t.Run("reference three replicas", func(t *testing.T) {
		res := hunt(t, fault.None, 3)
		if res.Found || res.Checks != 40 {
			// The whole failing run, each op with its send and receive
			// times: a false finding on the reference is the hunter's
			// to explain.
			var ops strings.Builder
			if res.History != nil {
				for i := range res.History.Ops {
					o := &res.History.Ops[i]
					fmt.Fprintf(&ops, "\n  %s", o)
					if o.Ex != nil {
						fmt.Fprintf(&ops, " [sent %s received %s]", o.Ex.Sent.Format("15:04:05.000000"), o.Ex.Received.Format("15:04:05.000000"))
					}
				}
			}
			t.Fatalf("reference, three replicas: found %v (%s) after %d workloads: %v\nthe run:%s", res.Found, res.Class, res.Checks, res.Violations, ops.String())
		}
	})
	t.Run("three replicas", func(t *testing.T) {
		res := hunt(t, fault.ProcessCache, 3)
		if !res.Found {
			t.Fatalf("three replicas: nothing found in %d workloads", res.Checks)
		}
		t.Logf("caught: %s after %d clean workload(s) in %s: %v", res.Class, res.Checks, res.Detected, res.Violations)
	})
}
