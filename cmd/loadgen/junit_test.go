package main

import (
	"bytes"
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlspec/rlspec/envflag"
	"github.com/rlspec/rlspec/internal/trivial"
)

// TestLoadJUnit: a load run writes junit.xml with one case per threshold;
// a run that cannot start writes one error case saying why.
func TestLoadJUnit(t *testing.T) {
	srv := httptest.NewServer(trivial.Handler())
	defer srv.Close()
	dir := t.TempDir()
	var out, errb bytes.Buffer
	env := envflag.Map(map[string]string{"TARGET_URL": srv.URL, "RATE": "100", "DURATION": "300ms", "WARMUP": "0", "REPORT_DIR": dir, "THRESHOLDS": "p95<10s;p50<1ns"})
	if code := runLoad(context.Background(), nil, &out, &errb, env); code != 1 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	b, err := os.ReadFile(filepath.Join(dir, "junit.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`name="threshold p95&lt;10s"`, `name="threshold p50&lt;1ns"`, `failures="1"`, `name="throughput_rps"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("junit.xml lacks %s:\n%s", want, b)
		}
	}
	bad := t.TempDir()
	if code := runLoad(context.Background(), nil, &out, &errb, envflag.Map(map[string]string{"RATE": "fast", "REPORT_DIR": bad})); code != 2 {
		t.Fatalf("bad RATE: exit %d", code)
	}
	b, err = os.ReadFile(filepath.Join(bad, "junit.xml"))
	if err != nil || !strings.Contains(string(b), `errors="1"`) || !strings.Contains(string(b), "RATE=") {
		t.Errorf("junit.xml on exit 2: %v\n%s", err, b)
	}
}
