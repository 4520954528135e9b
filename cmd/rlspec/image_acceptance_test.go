package main

import (
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rlspec/rlspec/bodytmpl"
	"github.com/rlspec/rlspec/containers"
	"github.com/rlspec/rlspec/containers/containerstest"
	"github.com/rlspec/rlspec/internal/testctx"
	"github.com/rlspec/rlspec/steps/scenario"
)

// referenceImage builds the reference image once per test binary (under a
// tag of its own, so that another checkout's tests cannot swap it), or
// skips the test with a one-line reason when no Docker engine answers.
var refImage struct {
	once sync.Once
	tag  string // this test binary's own tag, removed by TestMain
	err  error
}

func referenceImage(t *testing.T) string {
	t.Helper()
	containerstest.RequireDocker(t)
	refImage.once.Do(func() {
		ctx := testctx.Context(t)
		refImage.tag = "rlspec-reference:test-" + strings.ToLower(bodytmpl.NewUUID()[:8])
		refImage.err = containers.BuildImage(ctx, refImage.tag, containers.WithBuildDir("../.."))
	})
	if refImage.err != nil {
		t.Fatalf("build %s: %v", refImage.tag, refImage.err)
	}
	return refImage.tag
}

// TestAcceptanceTargetImage: `make acceptance TARGET_IMAGE=…` against the
// reference image runs the whole suite through testcontainers and passes
// it with STRICT=1: nothing is skipped. EXT-XFF-01, which CLIENT_IPS=xff
// cannot send to the instance that trusts the harness as its proxy, runs
// against one more instance started without trusted proxies.
// EXT-AUTH-01 is left out: it needs credentials in TARGET_HEADERS that
// the image requires, and rlspec passes no such setting to an image; so is
// FAIL-1-01: an image's store can be taken away only by the user's
// STORE_DOWN_CMD.
func TestAcceptanceTargetImage(t *testing.T) {
	t.Parallel()
	img := referenceImage(t)
	dir := t.TempDir()
	// A 5 s window: with 3 s, exhausting the bucket and waiting 2 s
	// inside its window (AC3-03) can outlast a window whose Reset is
	// rounded to whole seconds.
	code, stdout, stderr := runCLI(t, 4*time.Minute, map[string]string{
		"TARGET_IMAGE": img, "RL_LIMIT": "10", "RL_WINDOW": "5s", "REPORT_DIR": dir,
		"TAGS":     "not @id:EXT-AUTH-01 and not @id:FAIL-1-01",
		"FEATURES": "fail-closed,persistence,multi-instance", // PS-1: rlspec restarts the containers
		"REPLICAS": "2",                                      // MI-1: two containers on one volume
	})
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"CLIENT_IPS=xff", "TRUSTED_PROXIES=", "without TRUSTED_PROXIES, for EXT-XFF-01"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("the console does not say %q:\n%s", want, stderr)
		}
	}
	rep := readJUnit(t, dir)
	var skipped []string
	xff := false
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			switch {
			case c.Skipped == "":
			case brokenAssumption(c.Skipped):
				// A time assumption that broke twice on a starved machine
				// is a skip with its reason, never a verdict (issue 27):
				// not a failure of the reference.
				t.Logf("%s skipped: %s", c.Name, c.Skipped)
			default:
				skipped = append(skipped, c.Name)
			}
			xff = xff || strings.HasPrefix(c.Name, "EXT-XFF-01")
		}
	}
	// Expected skip: FAIL-2 (not claimed). PS-1-01
	// passes: rlspec restarted the containers; MI-1-01 and MI-1-02 pass
	// over the two replicas. EXT-XFF-01 runs against the untrusting
	// instance.
	want := []string{"FAIL-2-01"}
	sort.Strings(skipped)
	ok := len(skipped) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(skipped[i], want[i]+" ")
	}
	if rep.Tests < 39 || rep.Failures != 0 || !ok || !xff {
		t.Fatalf("tests %d, failures %d, skipped %v, EXT-XFF-01 ran %v; want ≥39, 0, only %v, true\n%s", rep.Tests, rep.Failures, skipped, xff, want, stdout)
	}
}

// brokenAssumption reports whether a skip's reason is a time assumption
// that broke (scenario.TimeSkip), as a starved machine can make it.
func brokenAssumption(reason string) bool {
	return strings.Contains(reason, scenario.TimeSkip)
}

// TestAcceptanceTargetImageUnknownImage: an image that does not exist is
// exit 2 with one sentence, and nothing is left running.
func TestAcceptanceTargetImageUnknownImage(t *testing.T) {
	t.Parallel()
	referenceImage(t)
	code, _, stderr := runCLI(t, time.Minute, map[string]string{
		"TARGET_IMAGE": "rlspec-no-such-image:never", "REPORT_DIR": t.TempDir(),
	})
	if code != 2 || !strings.Contains(stderr, "could not run") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}
