package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/loadgen/fleet"
	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/yaml"
)

// TestForwardRoundTrip: the flags a starter passes on give each generator
// the starter's settings, with its share of the rate and the keys.
func TestForwardRoundTrip(t *testing.T) {
	env := map[string]string{"TARGET_URL": "http://10.0.0.1:8080", "RATE": "900", "BUCKETS": "10", "DURATION": "7s", "WARMUP": "2s",
		"GENERATORS": "3", "RL_LIMIT": "50", "RL_WINDOW": "30s", "TARGET_HEADERS": "Authorization: Bearer x", "CLIENT_IPS": "xff"}
	starter, err := parseConfig(false, nil, envflag.Map(env), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(starter.Fleet.Forward) == 0 {
		t.Fatal("nothing forwarded")
	}
	genEnv := map[string]string{fleet.EnvGenerators: "3", fleet.EnvSwarmSlot: "2", fleet.EnvStartAt: "2026-11-25T23:00:00Z", "REPORT_DIR": "/reports"}
	gen, err := parseConfig(false, starter.Fleet.Forward, envflag.Map(genEnv), nil)
	if err != nil {
		t.Fatalf("a generator refuses the forwarded flags %q: %v", starter.Fleet.Forward, err)
	}
	if !reflect.DeepEqual(gen.Target, starter.Target) {
		t.Errorf("target settings differ:\nstarter   %+v\ngenerator %+v", starter.Target, gen.Target)
	}
	if gen.Fleet.Share == nil || gen.Fleet.Share.Index != 1 || gen.Rate != 300 || gen.Buckets != 3 || gen.Duration != starter.Duration || gen.Warmup != starter.Warmup {
		t.Errorf("generator: share %+v rate %g buckets %d duration %s warmup %s", gen.Fleet.Share, gen.Rate, gen.Buckets, gen.Duration, gen.Warmup)
	}
	if gen.ReportDir != "/reports/generator-1" || gen.Thresholds != nil || gen.Fleet.StartAt.IsZero() {
		t.Errorf("generator: report dir %q thresholds %v start %v", gen.ReportDir, gen.Thresholds, gen.Fleet.StartAt)
	}
}

// TestFleetSettingsExit2: settings a load of several generators cannot
// run with are refused with one sentence.
func TestFleetSettingsExit2(t *testing.T) {
	body := filepath.Join(t.TempDir(), "body.json")
	if err := os.WriteFile(body, []byte(bodytmpl.Default), 0o644); err != nil {
		t.Fatal(err)
	}
	for want, env := range map[string]map[string]string{
		`GENERATORS="0" is not a positive integer`:   {"GENERATORS": "0"},
		"BUCKETS=2 cannot be shared by 3 generators": {"GENERATORS": "3", "BUCKETS": "2"},
		"generator index 3 is not in 0..2":           {"GENERATORS": "3", "GENERATOR_INDEX": "3"},
		`START_AT="noon" is not an RFC 3339 instant`: {"START_AT": "noon"},
		`EMIT="helm"`:                             {"EMIT": "helm", "TARGET_URL": "http://x:1"},
		"EMIT=k8s needs TARGET_URL":               {"EMIT": "k8s", "GENERATORS": "2"},
		"BODY_TEMPLATE is a file on this machine": {"GENERATORS": "2", "BODY_TEMPLATE": body},
	} {
		if _, err := parseConfig(false, nil, envflag.Map(env), nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: %v, want %q", env, err, want)
		}
	}
}

// TestEmitK8s: `loadgen run -emit k8s` prints a manifest that decodes
// strictly into a batchv1.Job of GENERATORS indexed completions, every pod
// with the starter's settings and no index of its own.
func TestEmitK8s(t *testing.T) {
	env := map[string]string{"EMIT": "k8s", "GENERATORS": "5", "TARGET_URL": "http://limiter.svc:8080", "RATE": "5000",
		"START_AT": "2026-11-26T00:00:00Z", "REPORT_DIR": t.TempDir()}
	var out, errb bytes.Buffer
	if code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(env)); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var job batchv1.Job
	if err := yaml.UnmarshalStrict(out.Bytes(), &job); err != nil {
		t.Fatalf("strict decode: %v\n%s", err, out.String())
	}
	s := job.Spec
	if *s.Completions != 5 || *s.Parallelism != 5 || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("completions %d parallelism %d mode %s", *s.Completions, *s.Parallelism, *s.CompletionMode)
	}
	c := s.Template.Spec.Containers[0]
	args := strings.Join(c.Command, " ")
	for _, want := range []string{"/loadgen run", "-rate=5000", "-target-url=http://limiter.svc:8080"} {
		if !strings.Contains(args, want) {
			t.Errorf("command %q lacks %q", args, want)
		}
	}
	for _, e := range c.Env {
		if e.Name == fleet.EnvStartAt && e.Value != "2026-11-26T00:00:00Z" || e.Name == fleet.EnvIndex {
			t.Errorf("env %s=%s", e.Name, e.Value)
		}
	}
}
