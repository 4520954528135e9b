package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/rlspec/rlspec/containers"
)

// buildHarness builds the harness image of `rlspec image` (c.harness, empty
// skips it) and, with -smoke, runs its `rlspec version` once.
func buildHarness(ctx context.Context, c imageConfig, st *imageSteps, log, stdout, stderr io.Writer) int {
	if c.harness == "" {
		return 0
	}
	start := time.Now()
	err := containers.BuildHarnessImage(ctx, c.harness, containers.WithBuildLog(log))
	st.step("build "+c.harness, start, err, false)
	if err != nil {
		fmt.Fprintf(stderr, "rlspec image: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "built %s\n", c.harness)
	if !c.smoke {
		return 0
	}
	start = time.Now()
	code, out, err := containers.RunToExit(ctx, c.harness, containers.RunOptions{Cmd: []string{"version"}, Timeout: time.Minute, Log: log})
	if err == nil && (code != 0 || !strings.HasPrefix(out, "rlspec ")) {
		err = fmt.Errorf("exit %d: %s", code, strings.TrimSpace(out))
	}
	st.step("smoke test: "+c.harness+" runs rlspec version", start, err, ctx.Err() == nil)
	if err != nil {
		fmt.Fprintf(stderr, "rlspec image: smoke test of %s: exit %d, %v: %s\n", c.harness, code, err, strings.TrimSpace(out))
		if ctx.Err() != nil {
			return 2
		}
		return 1
	}
	fmt.Fprintf(stdout, "smoke test passed: %s runs: %s\n", c.harness, strings.TrimSpace(out))
	return 0
}
