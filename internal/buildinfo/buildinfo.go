// Package buildinfo describes the running binary from the Go build info
// (runtime/debug.ReadBuildInfo): the module version `go install …@v1.2.3`
// stamps, the VCS revision `go build` stamps in a checkout, and the Go
// version. `rlspec version` and `loadgen version` print it.
package buildinfo

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// Set with -ldflags "-X github.com/rlspec/rlspec/internal/buildinfo.version=v1.2.3
// -X …revision=<commit>" by `make dist`, for builds where the go command
// cannot stamp them (a git worktree, -buildvcs=false); the go command's
// own stamps win when it has them.
var (
	version  string
	revision string
)

// Info is what a binary knows about its own build.
type Info struct {
	Path      string // main package path
	Module    string // main module path
	Version   string // main module version: v1.2.3, a pseudo-version, or (devel)
	Revision  string // vcs.revision, empty when not stamped
	Time      string // vcs.time
	Modified  bool   // vcs.modified: built from a tree with uncommitted changes
	GoVersion string
}

// Read returns the running binary's Info; ok is false when the binary
// carries no build info (not built by the go command in module mode).
func Read() (Info, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{}, false
	}
	return FromBuildInfo(bi).stamped(version, revision), true
}

// stamped fills what the go command left unknown from the -X stamps.
func (in Info) stamped(version, revision string) Info {
	if version != "" && in.Version == "(devel)" {
		in.Version = version
	}
	if revision != "" && in.Revision == "" {
		in.Revision = revision
	}
	return in
}

// FromBuildInfo extracts Info from bi.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Path: bi.Path, Module: bi.Main.Path, Version: bi.Main.Version, GoVersion: bi.GoVersion}
	if in.Version == "" {
		in.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// Describe is the one-line description `NAME version` prints, e.g.
// "rlspec v1.2.0 (github.com/rlspec/rlspec, revision 0123abcd…, go1.26.8)".
func (in Info) Describe(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", name, in.Version)
	parts := []string{}
	if in.Module != "" {
		parts = append(parts, in.Module)
	}
	if in.Revision != "" {
		rev := "revision " + in.Revision
		if in.Time != "" {
			rev += " " + in.Time
		}
		if in.Modified {
			rev += " (modified)"
		}
		parts = append(parts, rev)
	} else {
		parts = append(parts, "revision unknown")
	}
	parts = append(parts, in.GoVersion)
	fmt.Fprintf(&b, " (%s)", strings.Join(parts, ", "))
	return b.String()
}

// Command is the `NAME version` subcommand: it prints Describe on stdout
// and returns the exit status (2 on arguments or missing build info).
func Command(name string, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "%s version: takes no arguments, got %q\n", name, args)
		return 2
	}
	in, ok := Read()
	if !ok {
		fmt.Fprintf(stderr, "%s version: the binary carries no build info\n", name)
		return 2
	}
	fmt.Fprintln(stdout, in.Describe(name))
	return 0
}
