package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	fs := flag.NewFlagSet("interop", flag.ContinueOnError)
	root := fs.String("root", "interop", "the folder of the limiters")
	bin := fs.String("rlspec", "bin/rlspec", "the rlspec binary to check the limiters with")
	out := fs.String("out", "docs/interop.md", "the matrix written")
	only := fs.String("only", "", "run only targets whose folder contains this")
	reports := fs.String("reports", "reports/interop", "where each target's rlspec reports and output go")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	targets, err := Discover(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		return 2
	}
	rl, err := describe(*bin)
	if err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		return 2
	}
	rl.Reports = *reports
	if err := os.RemoveAll(*reports); err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		return 2
	}
	began := time.Now()
	var outs []Outcome
	apt := false
	for _, t := range targets {
		if *only != "" && !strings.Contains(t.Dir, *only) {
			continue
		}
		fmt.Printf("interop: %s …\n", t.Label())
		o := RunTarget(ctx, rl, t, &apt)
		switch {
		case o.Skip != "":
			fmt.Printf("interop: %s %s: skipped: %s\n", t.Label(), o.Version, o.Skip)
		default:
			fmt.Printf("interop: %s %s: %d scenario(s), %d difference(s), %s\n", t.Label(), o.Version, len(o.Results), len(o.Diffs), o.Took.Round(time.Second))
		}
		for _, d := range o.Diffs {
			fmt.Printf("  DIFFERENCE %s\n", d)
		}
		outs = append(outs, o)
		if ctx.Err() != nil {
			return 2
		}
	}
	f, err := os.Create(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		return 2
	}
	if err := WriteMatrix(f, rl, outs, time.Now(), time.Since(began)); err != nil {
		f.Close()
		fmt.Fprintln(os.Stderr, "interop:", err)
		return 2
	}
	if err := f.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "interop:", err)
		return 2
	}
	diffs := 0
	for _, o := range outs {
		diffs += len(o.Diffs)
	}
	fmt.Printf("interop: %d target(s), %d difference(s) from expected.md, %s; matrix in %s, reports in %s\n", len(outs), diffs, time.Since(began).Round(time.Second), *out, *reports)
	if diffs > 0 {
		return 1
	}
	return 0
}

// describe asks the rlspec binary for its settings and version.
func describe(bin string) (Rlspec, error) {
	help, _ := exec.Command(bin, "acceptance", "-h").CombinedOutput() // -h exits 0 or 2; the text is what counts
	if !strings.Contains(string(help), "-target-url") {
		return Rlspec{}, fmt.Errorf("%s acceptance -h does not list its settings: %s", bin, tail(string(help)))
	}
	v, err := exec.Command(bin, "version").Output()
	if err != nil {
		return Rlspec{}, fmt.Errorf("%s version: %w", bin, err)
	}
	ver := oneLine(string(v))
	if rev, err := exec.Command("git", "rev-parse", "--short", "HEAD").Output(); err == nil && strings.Contains(ver, "revision unknown") {
		ver = strings.Replace(ver, "revision unknown", "checkout at "+strings.TrimSpace(string(rev)), 1)
	}
	return Rlspec{Bin: bin, Help: string(help), Version: ver, ProbeProfiles: probeProfiles(bin)}, nil
}
