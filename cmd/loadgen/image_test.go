package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/containers/containerstest"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/internal/pgcluster"
	"github.com/rlspec/rlspec/internal/testctx"
)

// TestImageStoreSettingsExit2: REPLICAS and STORE=postgres are how
// TARGET_IMAGE's instances are started; without it, or with settings they
// cannot run with, loadgen run refuses with one sentence and exit 2.
func TestImageStoreSettingsExit2(t *testing.T) {
	for want, env := range map[string]map[string]string{
		"REPLICAS=3 starts instances of TARGET_IMAGE":     {"REPLICAS": "3"},
		"STORE=postgres applies to TARGET_IMAGE":          {"STORE": "postgres"},
		"STORE=postgres applies to TARGET_IMAGE (its ins": {"STORE": "postgres", "TARGET_URL": "http://127.0.0.1:1"},
		`REPLICAS="0" is not a positive integer`:          {"REPLICAS": "0", "TARGET_IMAGE": "img:1"},
		`REPLICAS="two" is not a positive integer`:        {"REPLICAS": "two", "TARGET_IMAGE": "img:1"},
		`STORE: "mysql" is not a store`:                   {"STORE": "mysql", "TARGET_IMAGE": "img:1"},
	} {
		env["REPORT_DIR"] = t.TempDir()
		var out, errb bytes.Buffer
		if code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(env)); code != 2 || !strings.Contains(errb.String(), want) ||
			strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one line with %q", env, code, errb.String(), want)
		}
	}
}

// TestImagePostgresNeedsItsBinaries: STORE=postgres with TARGET_IMAGE
// starts a throwaway PostgreSQL; where its binaries are not found, the
// settings are refused before any container starts.
func TestImagePostgresNeedsItsBinaries(t *testing.T) {
	t.Setenv("PG_BINDIR", t.TempDir()) // no initdb there
	env := map[string]string{"TARGET_IMAGE": "img:1", "STORE": "postgres", "REPORT_DIR": t.TempDir()}
	var out, errb bytes.Buffer
	if code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(env)); code != 2 || !strings.Contains(errb.String(), "STORE=postgres starts a throwaway PostgreSQL") {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

// TestImageStoreSettings: TARGET_IMAGE takes REPLICAS and STORE.
func TestImageStoreSettings(t *testing.T) {
	env := map[string]string{"TARGET_IMAGE": "img:1", "REPLICAS": "3", "STORE": "sqlite"}
	cfg, err := parseConfig(false, nil, envflag.Map(env), nil)
	if err != nil || cfg.Replicas != 3 || cfg.Store != fakeserver.StoreSQLite {
		t.Fatalf("%+v, %v", cfg, err)
	}
	if cfg, err := parseConfig(false, nil, envflag.Map(map[string]string{}), nil); err != nil || cfg.Replicas != 1 || cfg.Store != fakeserver.StoreSQLite {
		t.Fatalf("defaults: replicas %d store %q, %v", cfg.Replicas, cfg.Store, err)
	}
}

// TestRunImageOnPostgres puts a short load on two instances of the
// reference image sharing a throwaway PostgreSQL: every request is
// answered 200 or 429, on connections spread over both.
func TestRunImageOnPostgres(t *testing.T) {
	if _, err := pgcluster.BinDir(); err != nil {
		t.Skip(err)
	}
	t.Setenv("TESTCONTAINERS_RYUK_DISABLED", "true") // before testcontainers reads its configuration
	containerstest.RequireDocker(t)
	ctx := testctx.Context(t)
	tag := "rlspec-reference:loadgen-test-" + strings.ToLower(bodytmpl.NewUUID()[:8])
	if err := containers.BuildImage(ctx, tag, containers.WithBuildDir("../..")); err != nil {
		t.Fatalf("build %s: %v", tag, err)
	}
	t.Cleanup(func() {
		if err := containers.RemoveImage(context.Background(), tag); err != nil {
			t.Errorf("remove %s: %v", tag, err)
		}
	})
	env := map[string]string{"TARGET_IMAGE": tag, "STORE": "postgres", "REPLICAS": "2", "RL_LIMIT": "20", "RL_WINDOW": "2",
		"RATE": "200", "DURATION": "1s", "WARMUP": "200ms", "BUCKETS": "5", "CONNECTIONS": "4", "THRESHOLDS": "errors<0.1%", "REPORT_DIR": t.TempDir()}
	var out, errb bytes.Buffer
	code := runLoad(ctx, nil, &out, &errb, envflag.Map(env))
	o := out.String()
	if code != 0 || !strings.Contains(o, "share PostgreSQL") || !strings.Contains(o, "2 replicas") ||
		!strings.Contains(o, "other=0 transport_errors=0") || strings.Contains(o, "status: 200=0 ") || strings.Contains(o, " 429=0 ") {
		t.Fatalf("exit %d\n%s\n%s", code, o, errb.String())
	}
}
