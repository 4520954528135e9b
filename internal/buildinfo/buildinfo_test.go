package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestDescribeNamesVersionRevisionAndGo(t *testing.T) {
	bi := &debug.BuildInfo{
		GoVersion: "go1.26.8",
		Path:      "github.com/rlspec/rlspec/cmd/rlspec",
		Main:      debug.Module{Path: "github.com/rlspec/rlspec", Version: "v1.2.3"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef"},
			{Key: "vcs.time", Value: "2026-11-23T17:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		},
	}
	got := FromBuildInfo(bi).Describe("rlspec")
	want := "rlspec v1.2.3 (github.com/rlspec/rlspec, revision 0123456789abcdef 2026-11-23T17:00:00Z (modified), go1.26.8)"
	if got != want {
		t.Fatalf("Describe:\n got %q\nwant %q", got, want)
	}
}

func TestDescribeWithoutVCSOrVersion(t *testing.T) {
	got := FromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "m"}}).Describe("loadgen")
	if got != "loadgen (devel) (m, revision unknown, go1.26.8)" {
		t.Fatalf("Describe: %q", got)
	}
}

func TestReadInTestBinary(t *testing.T) {
	in, ok := Read()
	if !ok {
		t.Fatal("a test binary carries build info")
	}
	if !strings.HasPrefix(in.GoVersion, "go") {
		t.Fatalf("GoVersion %q", in.GoVersion)
	}
}

func TestCommand(t *testing.T) {
	var out, errb strings.Builder
	if code := Command("rlspec", nil, &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "rlspec ") {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := Command("rlspec", []string{"x"}, &out, &errb); code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), "no arguments") {
		t.Fatalf("with an argument: code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

func TestStampsFillOnlyWhatTheGoCommandLeftUnknown(t *testing.T) {
	devel := Info{Version: "(devel)", GoVersion: "go1.26.8"}
	if got := devel.stamped("v1.0.0", "abc"); got.Version != "v1.0.0" || got.Revision != "abc" {
		t.Fatalf("devel build: %+v", got)
	}
	tagged := Info{Version: "v2.0.0", Revision: "def"}
	if got := tagged.stamped("v1.0.0", "abc"); got.Version != "v2.0.0" || got.Revision != "def" {
		t.Fatalf("go-stamped build: %+v", got)
	}
}
