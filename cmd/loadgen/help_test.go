package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestHelpAndOwnFlags(t *testing.T) {
	t.Setenv("REPORT_DIR", t.TempDir()) // exit 2 writes junit.xml there
	for _, args := range [][]string{{"-h"}, {"run", "-h"}, {"merge", "-h"}} {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), args, &stdout, &stderr); code != 0 || stderr.Len() != 0 || !strings.HasPrefix(stdout.String(), "usage: loadgen") {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout.String(), stderr.String())
		}
		if args[0] == "run" && (!strings.Contains(stdout.String(), "  -rate ") || strings.Contains(stdout.String(), "  -tags ")) {
			t.Errorf("run -h shows the wrong flags:\n%s", stdout.String())
		}
		if args[0] == "merge" && strings.Contains(stdout.String(), "  -rate ") {
			t.Errorf("merge -h shows -rate:\n%s", stdout.String())
		}
	}
	for _, args := range [][]string{{"run", "-tags", "@x", "-strict"}, {"run", "-db-schema", "prd"}, {"merge", "-rate", "5", "a.hlog"}} {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), args, &stdout, &stderr)
		if code != 2 || !strings.Contains(stderr.String(), args[1]) || strings.Count(strings.TrimSpace(stderr.String()), "\n") != 0 {
			t.Errorf("%v: exit %d, stderr %q; want 2 and one sentence", args, code, stderr.String())
		}
	}
}
