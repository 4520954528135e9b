package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/internal/pgcluster"
)

// TestRunSQLEmbedded puts closed-loop load on spec/004's function in a
// throwaway cluster: every call answered 200 (limit far above the load).
func TestRunSQLEmbedded(t *testing.T) {
	if _, err := pgcluster.BinDir(); err != nil {
		t.Skip(err)
	}
	env := map[string]string{"TARGET_SQL": "check_rate_limit", "TARGET_DB": "embedded", "RL_LIMIT": "1000000", "RL_WINDOW": "1m",
		"RATE": "0", "CONNECTIONS": "2", "DURATION": "500ms", "WARMUP": "100ms", "BUCKETS": "10", "THRESHOLDS": "errors<0.1%", "REPORT_DIR": t.TempDir()}
	var out, errb bytes.Buffer
	code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(env))
	if code != 0 || !strings.Contains(out.String(), "other=0 transport_errors=0") || !strings.Contains(out.String(), "check_rate_limit") {
		t.Fatalf("exit %d\n%s\n%s", code, out.String(), errb.String())
	}
}

func TestRunSQLBadSettingsExit2(t *testing.T) {
	for want, env := range map[string]map[string]string{
		"needs TARGET_DB":      {"TARGET_SQL": "check_rate_limit"},
		"only with TARGET_SQL": {"TARGET_DB": "postgres://h/db"},
	} {
		env["REPORT_DIR"] = t.TempDir()
		var out, errb bytes.Buffer
		if code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(env)); code != 2 || !strings.Contains(errb.String(), want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", env, code, errb.String(), want)
		}
	}
}
