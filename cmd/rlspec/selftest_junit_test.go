package main

import (
	"strings"
	"testing"
	"time"

	"github.com/rlspec/rlspec/containers/containerstest"
)

// rlspec selftest and rlspec image write junit.xml with one error case when
// they cannot run; rlspec selftest one case per reference run and per fault.
func TestSelftestAndImageWriteJUnit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"selftest", "-runs", "x"}, "RUNS"},
		{[]string{"selftest", "-profile", "prd,nope"}, "PROFILE"},
		{[]string{"selftest", "-profile", "sliding-log", "-faults", "off-by-one"}, "belongs to profile prd"},
		{[]string{"selftest", "-overload", "hogs=lots"}, "OVERLOAD"},
		{[]string{"selftest", "-detect", "0"}, "DETECT"},
		{[]string{"selftest", "-focus", "yes"}, "FOCUS"},
		{[]string{"image", "stray"}, "unexpected arguments"},
	} {
		dir := t.TempDir()
		if code, _, stderr := runIn(t, time.Minute, "", map[string]string{"REPORT_DIR": dir}, c.args...); code != 2 {
			t.Fatalf("%v: exit %d, want 2 (%s)", c.args, code, stderr)
		}
		r := readJUnit(t, dir)
		if r.Errors != 1 || r.Suites[0].Cases[0].Error == nil || !strings.Contains(r.Suites[0].Cases[0].Error.Message, c.want) {
			t.Errorf("%v: junit %+v", c.args, r)
		}
	}

	dir := t.TempDir()
	// One profile: the matrix of every profile runs in ./selftest.
	code, stdout, stderr := runIn(t, 4*time.Minute, "", map[string]string{"REPORT_DIR": dir, "PROFILE": "prd"}, "selftest", "-q", "-faults", "off-by-one", "-checks", "5", "-focus", "1")
	if code != 0 {
		t.Fatalf("selftest: exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := readJUnit(t, dir)
	var names []string
	for _, c := range r.Suites[0].Cases {
		names = append(names, c.Name)
	}
	if r.Tests != 2 || r.Failures != 0 || names[0] != "reference run 1/1 passes everything" || names[1] != "fault off-by-one is caught" {
		t.Errorf("selftest junit: %d tests, %d failures, %q", r.Tests, r.Failures, names)
	}
	if !strings.Contains(stdout, "profiles prd,") || strings.Contains(stdout, "SL-1-01") {
		t.Errorf("selftest PROFILE=prd: want the PRD's suite only\n%s", stdout)
	}
}

// rlspec image writes junit.xml: one case for the build, one for the smoke
// test.
func TestImageWritesJUnit(t *testing.T) {
	t.Parallel()
	containerstest.RequireDocker(t)
	dir := t.TempDir()
	if code, stdout, stderr := runIn(t, 5*time.Minute, "", map[string]string{"REPORT_DIR": dir}, "image", "-harness-tag", ""); code != 0 {
		t.Fatalf("image: exit %d\n%s\n%s", code, stdout, stderr)
	}
	r := readJUnit(t, dir)
	if r.Tests != 2 || r.Failures != 0 || r.Errors != 0 {
		t.Errorf("image junit: %+v", r)
	}
}
