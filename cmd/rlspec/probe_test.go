package main

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rlspec/rlspec/dialect"
	"github.com/rlspec/rlspec/fakeserver"
	"github.com/rlspec/rlspec/internal/testctx"
	"github.com/rlspec/rlspec/profile"
)

// runProbeCLI runs `rlspec probe` in a child process with env.
func runProbeCLI(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	return runIn(t, time.Minute, "", env, append([]string{"probe"}, args...)...)
}

// TestProbeConfigurationMistakesExit2: no target, a budget too small or
// not a number: exit 2, one sentence, nothing sent.
func TestProbeConfigurationMistakesExit2(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		env  map[string]string
		want string
	}{
		"no target":      {map[string]string{}, "TARGET_URL is not set"},
		"embedded":       {map[string]string{"TARGET_URL": "embedded"}, "TARGET_URL is not set"},
		"budget of one":  {map[string]string{"TARGET_URL": "http://127.0.0.1:1", "PROBE_BUDGET": "1"}, "PROBE_BUDGET=1: a probe needs at least 3 requests"},
		"budget letters": {map[string]string{"TARGET_URL": "http://127.0.0.1:1", "PROBE_BUDGET": "many"}, `PROBE_BUDGET="many" is not a number`},
		"profile all":    {map[string]string{"TARGET_URL": "http://127.0.0.1:1", "PROFILE": "all"}, "PROFILE=all"},
		"not a url":      {map[string]string{"TARGET_URL": "127.0.0.1:8080"}, "is not an http(s) base URL"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runProbeCLI(t, tc.env)
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != 2 || !strings.Contains(stderr, tc.want) || len(lines) != 1 || stdout != "" {
				t.Fatalf("exit %d, want 2 with one sentence holding %q\nstdout:\n%s\nstderr:\n%s", code, tc.want, stdout, stderr)
			}
		})
	}
}

// TestProbeBudgetAndCredentials: against a server that allows everything
// and counts, the probe sends exactly PROBE_BUDGET requests, says the
// limit is undetermined, and prints no credential of TARGET_HEADERS or
// of the URL.
func TestProbeBudgetAndCredentials(t *testing.T) {
	t.Parallel()
	var n atomic.Int64
	var auth atomic.Value
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		auth.Store(r.Header.Get("Authorization"))
		w.WriteHeader(http.StatusOK)
	}))
	defer hs.Close()
	url := strings.Replace(hs.URL, "http://", "http://probe:PASSWORD-3141@", 1) + "/api/items?api_key=QUERY-2718"
	code, stdout, stderr := runProbeCLI(t, map[string]string{"TARGET_URL": url, "PROBE_BUDGET": "7",
		"TARGET_HEADERS": "Authorization: Bearer SECRET-1618"})
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if got := n.Load(); got != 7 {
		t.Errorf("the server counted %d requests, want the budget's 7", got)
	}
	if auth.Load() != "Bearer SECRET-1618" {
		t.Errorf("the server was sent Authorization %q", auth.Load())
	}
	for _, secret := range []string{"SECRET-1618", "PASSWORD-3141", "QUERY-2718"} {
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("the output shows the credential %s:\n%s\n%s", secret, stdout, stderr)
		}
	}
	for _, w := range []string{"7 of 7 requests sent", "the limit and the refusal", "$RLSPEC_HEADER_AUTHORIZATION", "${RLSPEC_URL_PASSWORD}", "rlspec acceptance"} {
		if !strings.Contains(stdout, w) {
			t.Errorf("stdout lacks %q:\n%s", w, stdout)
		}
	}
}

// suggestedEnv runs the assignments of the probe's last line through a
// shell, as a user pasting it would, and returns the variables they set.
func suggestedEnv(t *testing.T, stdout string) map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	assign, ok := strings.CutSuffix(last, "rlspec acceptance")
	if !ok {
		t.Fatalf("the last line is not an acceptance command: %q", last)
	}
	ctx := testctx.Context(t)
	cmd := exec.CommandContext(ctx, "sh", "-c", assign+"env")
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sh -c %q: %v", assign+"env", err)
	}
	env := map[string]string{}
	for _, kv := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.Contains(assign, k+"=") {
			env[k] = v
		}
	}
	return env
}

// TestProbeThenAcceptancePasses: against the reference in several designs
// and dialects, the command the probe prints, pasted as it is, makes
// rlspec acceptance pass.
func TestProbeThenAcceptancePasses(t *testing.T) {
	if testing.Short() {
		t.Skip("a probe and an acceptance run per design (about a minute)")
	}
	t.Parallel()
	cfg := func(p profile.Name, limit int, a dialect.Settings, align profile.Align) fakeserver.Config {
		c := fakeserver.DefaultConfig()
		c.Profile, c.Limit, c.Window, c.Answer, c.Align = p, limit, 10*time.Second, a, align
		return c
	}
	tb := cfg(profile.TokenBucket, 500, dialect.Settings{Dialect: dialect.IETF}, "")
	tb.Burst, tb.Rate = 5, 2
	bare := cfg(profile.TokenBucket, 500, dialect.Settings{Dialect: dialect.Status}, "")
	bare.Burst, bare.Rate, bare.RefusalBody = 4, 0.5, fakeserver.RefusalText
	for name, c := range map[string]fakeserver.Config{
		"fixed-window epoch ratelimit-fields": cfg(profile.FixedWindow, 5, dialect.Settings{Dialect: dialect.Fields}, profile.AlignEpoch),
		"fixed-window first-request delta":    cfg(profile.FixedWindow, 4, dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetDelta}, profile.AlignFirstRequest),
		"sliding-log http-date":               cfg(profile.SlidingLog, 4, dialect.Settings{Dialect: dialect.XRateLimit, ResetFormat: dialect.ResetHTTPDate}, ""),
		"token-bucket ietf":                   tb,
		"token-bucket status text body":       bare,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			run, err := fakeserver.Start(c, "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			defer run.Close()
			code, stdout, stderr := runProbeCLI(t, map[string]string{"TARGET_URL": run.URL + fakeserver.PathRideSummary})
			if code != 0 {
				t.Fatalf("probe: exit %d\n%s\n%s", code, stdout, stderr)
			}
			env := suggestedEnv(t, stdout)
			if env["PROFILE"] != string(c.Profile) {
				t.Errorf("PROFILE=%s suggested for the reference's %s\n%s", env["PROFILE"], c.Profile, stdout)
			}
			env["REPORT_DIR"] = t.TempDir()
			code, out, errOut := runIn(t, 2*time.Minute, "", env, "acceptance")
			if code != 0 {
				t.Errorf("acceptance with the probe's settings: exit %d\nprobe:\n%s\nacceptance:\n%s\n%s", code, stdout, out, errOut)
			}
		})
	}
}
