package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

func runMain(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// hasFlag reports whether a usage text lists flag f.
func hasFlag(usage, f string) bool {
	return regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(f) + `( |$)`).MatchString(usage)
}

func TestHelp(t *testing.T) {
	t.Setenv("REPORT_DIR", t.TempDir()) // exit 2 writes junit.xml there
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		code, stdout, stderr := runMain(args...)
		if code != 0 || stderr != "" || !strings.Contains(stdout, "acceptance") || !strings.Contains(stdout, "race") {
			t.Errorf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, stdout, stderr)
		}
		for name := range commands() {
			if !regexp.MustCompile(`(?m)^  ` + name + ` +\S`).MatchString(stdout) {
				t.Errorf("%v does not describe %s:\n%s", args, name, stdout)
			}
		}
	}
	if _, stdout, _ := runMain("acceptance", "-h"); !strings.Contains(stdout, "Cucumber tag expression") {
		t.Errorf("acceptance -h: -tags does not say Cucumber tag expression:\n%s", stdout)
	}
	_, _, stderr := runMain("summary", "-h")
	if _, junit, _ := strings.Cut(stderr, "-junit"); strings.Count(strings.Split(junit, "-title")[0], "default") != 1 {
		t.Errorf("summary -h states -junit's default other than once:\n%s", stderr)
	}
	for cmd, flags := range map[string]struct{ has, lacks []string }{
		"acceptance": {[]string{"-tags", "-strict", "-target-db", "-fault", "-target-headers"}, nil},
		"race":       {[]string{"-seed", "-checks", "-target-url", "-rl-limit", "-target-sql", "-target-db"}, []string{"-tags", "-strict", "-db-schema", "-target-url-disabled", "-rl-sentinel"}},
		"selftest":   {[]string{"-runs", "-faults"}, []string{"-tags", "-target-url"}},
		"image":      {[]string{"-tag", "-smoke"}, []string{"-target-url"}},
	} {
		code, stdout, stderr := runMain(cmd, "-h")
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, "usage: rlspec "+cmd) {
			t.Errorf("%s -h: exit %d\nstdout:\n%s\nstderr:\n%s", cmd, code, stdout, stderr)
		}
		for _, f := range flags.has {
			if !hasFlag(stdout, f) {
				t.Errorf("%s -h lacks %s", cmd, f)
			}
		}
		for _, f := range flags.lacks {
			if hasFlag(stdout, f) {
				t.Errorf("%s -h shows %s, which it does not use", cmd, f)
			}
			code, _, stderr := runMain(cmd, f, "x")
			if code != 2 || !strings.Contains(stderr, f) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
				t.Errorf("%s %s x: exit %d, stderr %q; want 2 and one sentence", cmd, f, code, stderr)
			}
		}
	}
	if code, _, stderr := runMain("nope"); code != 2 || !strings.Contains(stderr, "unknown command") {
		t.Errorf("unknown command: exit %d, stderr %q", code, stderr)
	}
}

// TestMakeHelp: make help lists every target that has a '## target:' comment.
func TestMakeHelp(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	out, err := exec.Command("make", "-s", "-C", "../..", "help").Output()
	if err != nil {
		t.Fatalf("make help: %v", err)
	}
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range regexp.MustCompile(`(?m)^## ([a-z-]+):`).FindAllStringSubmatch(string(mk), -1) {
		if !regexp.MustCompile(`(?m)^  ` + m[1] + ` +\S`).Match(out) {
			t.Errorf("make help lacks %s:\n%s", m[1], out)
		}
	}
	for _, target := range []string{"test", "acceptance", "race", "load", "help"} {
		if !bytes.Contains(out, []byte("  "+target+" ")) {
			t.Errorf("make help lacks %s", target)
		}
	}
}
