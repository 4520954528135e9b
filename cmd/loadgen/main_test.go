package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/internal/trivial"
)

func TestRunBadSettingsExit2(t *testing.T) {
	for name, env := range map[string]map[string]string{
		"thresholds":  {"THRESHOLDS": "p95<<3ms", "TARGET_URL": "http://127.0.0.1:1"},
		"rate":        {"RATE": "fast", "TARGET_URL": "http://127.0.0.1:1"},
		"closed loop": {"RATE": "0", "TARGET_URL": "http://127.0.0.1:1"},
		"buckets":     {"BUCKETS": "0", "TARGET_URL": "http://127.0.0.1:1"},
		"unreachable": {"TARGET_URL": "http://127.0.0.1:1", "DURATION": "1s", "WARMUP": "0"},
	} {
		env["REPORT_DIR"] = t.TempDir()
		var out, errb bytes.Buffer
		if code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(env)); code != 2 {
			t.Errorf("%s: exit %d, want 2; stderr %q", name, code, errb.String())
		}
		if !strings.Contains(errb.String(), "cannot run") {
			t.Errorf("%s: stderr %q lacks a sentence", name, errb.String())
		}
	}
}

func TestRunPassBreachAndMerge(t *testing.T) {
	srv := httptest.NewServer(trivial.Handler())
	defer srv.Close()
	dir := t.TempDir()
	base := map[string]string{"TARGET_URL": srv.URL, "RATE": "200", "DURATION": "500ms", "WARMUP": "100ms", "BUCKETS": "10"}
	env := func(extra map[string]string) func(string) (string, bool) {
		m := map[string]string{}
		for k, v := range base {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return envflag.Map(m)
	}
	var out, errb bytes.Buffer
	a := filepath.Join(dir, "a")
	if code := runLoad(context.Background(), nil, &out, &errb, env(map[string]string{"REPORT_DIR": a, "THRESHOLDS": "p95<10s;errors<1%"})); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	for _, f := range []string{"load.json", "load.html", "load.png", "load.hlog"} {
		if st, err := os.Stat(filepath.Join(a, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	b := filepath.Join(dir, "b")
	errb.Reset()
	if code := runLoad(context.Background(), nil, &out, &errb, env(map[string]string{"REPORT_DIR": b, "THRESHOLDS": "p50<1ns"})); code != 1 {
		t.Fatalf("breached threshold: exit %d, want 1\n%s", code, errb.String())
	}
	if !strings.Contains(errb.String(), "p50<1ns breached") {
		t.Errorf("stderr %q", errb.String())
	}
	m := filepath.Join(dir, "m")
	errb.Reset()
	code := runMerge([]string{filepath.Join(a, "load.hlog"), filepath.Join(b, "load.hlog")}, &out, &errb, envflag.Map(map[string]string{"REPORT_DIR": m, "THRESHOLDS": "p95<10s"}))
	if code != 0 {
		t.Fatalf("merge exit %d: %s", code, errb.String())
	}
	var rep struct{ Requests int64 }
	raw, err := os.ReadFile(filepath.Join(m, "load.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &rep); err != nil || rep.Requests != 200 {
		t.Errorf("merged requests %d (%v), want 2×100", rep.Requests, err)
	}
	errb.Reset()
	if code := runMerge([]string{filepath.Join(dir, "missing.hlog")}, &out, &errb, envflag.Map(map[string]string{"REPORT_DIR": m})); code != 2 {
		t.Errorf("merge of a missing file: exit %d, want 2", code)
	}
}

func TestServeTrivialBadDelayExit2(t *testing.T) {
	for _, args := range [][]string{
		{"-delay", "-1ms"},
		{"-delay", "1ms", "-delay-sigma", "-0.5"},
		{"-delay", "1ms", "-delay-sigma", "NaN"},
		{"-delay", "soon"},
	} {
		var out, errb bytes.Buffer
		// A setting let through would serve until the deadline and exit 0.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		code := serveTrivial(ctx, args, &out, &errb)
		cancel()
		if code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
		if errb.Len() == 0 || out.Len() != 0 {
			t.Errorf("%v: stdout %q, stderr %q: want only an error", args, out.String(), errb.String())
		}
	}
}
