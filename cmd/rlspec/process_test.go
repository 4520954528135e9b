package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// runMainEnv set to 1 makes this test binary run rlspec's main on its
// arguments instead of the tests (TestMain): runIn's child processes.
const runMainEnv = "RLSPEC_TEST_RUN_MAIN"

// runIn runs `rlspec args…` as a child process of this test binary (built
// with the same flags, -race included) in dir ("": the test's own working
// directory) with env added to the environment, and returns its exit
// status and output. limit is how long the command takes on an idle
// machine; the test fails only if it has not returned within ten times
// that (at least two minutes, at most the test's own deadline less a
// margin): a guard against a hang, not a timed assertion, so a starved CI
// runner cannot fail it (issue 27). A process of its own gives each run
// its environment and working directory, so the tests that use it run in
// parallel.
func runIn(t *testing.T, limit time.Duration, dir string, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	guard := max(10*limit, 2*time.Minute)
	if d, ok := t.Deadline(); ok {
		guard = min(guard, max(time.Until(d)-15*time.Second, limit))
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Dir = dir
	// CI=true asks for TARGET_URL=embedded; tests that want it set it.
	cmd.Env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, "CI=") }), runMainEnv+"=1")
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("rlspec %v hangs: it did not return within %s\nstdout:\n%s\nstderr:\n%s", args, guard, stdout.String(), stderr.String())
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("rlspec %v: %v", args, err)
	}
	// The race detector fails a test it runs in; in a child it only
	// reports, and keeps a non-zero exit status the test may expect.
	if strings.Contains(stderr.String(), "WARNING: DATA RACE") {
		t.Errorf("rlspec %v: data race:\n%s", args, stderr.String())
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}
