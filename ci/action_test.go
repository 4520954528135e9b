package ci

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func newRunner(t *testing.T, inputs map[string]string, env ...string) *localRunner {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	base := []string{"HOME=" + os.Getenv("HOME"), "CI=true", "GITHUB_ACTIONS=true"} // as on GitHub's runners
	for _, k := range []string{"GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOTOOLCHAIN", "TMPDIR"} {
		if v, ok := os.LookupEnv(k); ok {
			base = append(base, k+"="+v)
		}
	}
	return &localRunner{t: t, root: root, inputs: inputs, env: append(base, env...), temp: t.TempDir()}
}

// TestActionBuildsAndPassesAgainstTheEmbeddedReference runs the action's
// steps as a runner would with install: go (the action's own source) and
// target-url: embedded, so rlspec runs its embedded reference (in CI it
// must be asked for): every step passes, the summary holds the totals and
// the upload step gets the reports.
func TestActionBuildsAndPassesAgainstTheEmbeddedReference(t *testing.T) {
	r := newRunner(t, map[string]string{"install": "go", "target-url": "embedded"})
	res := r.run()
	for name, s := range res.steps {
		if s.status != "success" {
			t.Errorf("step %q: %s\n%s", name, s.status, s.output)
		}
	}
	if !strings.Contains(res.summary, "### rlspec acceptance: ") || !strings.Contains(res.summary, " passed, 0 failed, ") {
		t.Errorf("job summary:\n%s", res.summary)
	}
	up := res.steps["Upload reports"].with
	if up["name"] != "rlspec-reports" {
		t.Errorf("artifact name %q", up["name"])
	}
	for _, f := range []string{"junit.xml", "cucumber.json", "report.html"} {
		if _, err := os.Stat(filepath.Join(up["path"], f)); err != nil {
			t.Errorf("uploaded path lacks %s: %v", f, err)
		}
	}
}

// stubRelease writes a release directory for file:// downloads: a stub
// rlspec-<os>-<arch> whose acceptance exits $STUB_EXIT (writing a JUnit
// report unless it is 2) and SHA256SUMS, tampered when asked.
func stubRelease(t *testing.T, tamper bool) string {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "v0.1.0") // releases/download/<tag>/<file>
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	name := fmt.Sprintf("rlspec-%s-%s", runtime.GOOS, runtime.GOARCH)
	stub := `#!/bin/sh
case $1 in
version) echo "rlspec v0.1.0 (stub)" ;;
acceptance)
	if [ "$STUB_EXIT" != 2 ]; then
		printf '<testsuites><testsuite name="s"><testcase name="AC1-01"/></testsuite></testsuites>' > "$REPORT_DIR/junit.xml"
	fi
	echo "stub acceptance TARGET_URL=$TARGET_URL RL_LIMIT=${RL_LIMIT-unset}"
	exit "$STUB_EXIT" ;;
summary) shift; echo "stub summary $*" ;;
esac
`
	if err := os.WriteFile(filepath.Join(dir, name), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(stub))
	if tamper {
		sum[0] ^= 1
	}
	if err := os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(hex.EncodeToString(sum[:])+"  "+name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return base
}

// TestActionVerdicts installs a stub release by tag through file:// and
// checks that the job fails exactly on rlspec's exit 1 and 2, after the
// summary and the upload, and that a binary not matching SHA256SUMS is
// refused.
func TestActionVerdicts(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("release binaries exist for linux and darwin only")
	}
	for _, tc := range []struct {
		name        string
		exit        string
		tamper      bool
		verdict     string
		summary     string
		gateRan     bool
		uploadsTo   bool
		verdictLine string
	}{
		{"pass", "0", false, "success", "stub summary -junit", true, true, "every scenario that ran passed"},
		{"fail", "1", false, "failure", "stub summary -junit", true, true, "a scenario failed"},
		{"could not run", "2", false, "failure", "no JUnit report", true, true, "could not run (exit status 2"},
		{"bad checksum", "0", true, "failure", "", false, false, "rlspec did not run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rel := stubRelease(t, tc.tamper)
			r := newRunner(t, map[string]string{"version": "v0.1.0", "target-url": "http://127.0.0.1:9"},
				"RLSPEC_RELEASE_URL=file://"+rel, "STUB_EXIT="+tc.exit)
			res := r.run()
			install, gate, verdict := res.steps["Install rlspec"], res.steps["Acceptance suite"], res.steps["Verdict"]
			if wantInstall := map[bool]string{true: "failure", false: "success"}[tc.tamper]; install.status != wantInstall {
				t.Fatalf("install: %s, want %s\n%s", install.status, wantInstall, install.output)
			}
			if tc.tamper && !strings.Contains(install.output, "does not match its SHA256SUMS") {
				t.Errorf("install output:\n%s", install.output)
			}
			if (gate.status != "skipped") != tc.gateRan {
				t.Errorf("gate: %s\n%s", gate.status, gate.output)
			}
			if tc.gateRan && !strings.Contains(gate.output, "TARGET_URL=http://127.0.0.1:9 RL_LIMIT=unset") {
				t.Errorf("gate did not pass the inputs as the contract's variables (empty ones unset):\n%s", gate.output)
			}
			if verdict.status != tc.verdict || !strings.Contains(verdict.output, tc.verdictLine) {
				t.Errorf("verdict: %s, want %s with %q\n%s", verdict.status, tc.verdict, tc.verdictLine, verdict.output)
			}
			if !strings.Contains(res.summary, tc.summary) {
				t.Errorf("summary %q lacks %q", res.summary, tc.summary)
			}
			if up := res.steps["Upload reports"]; (up.status == "success") != tc.uploadsTo {
				t.Errorf("upload: %s", up.status)
			}
		})
	}
}

// TestActionTakesTheJobsEnv: a workflow that sets TARGET_URL and RL_LIMIT
// in the job's env: instead of with: gets them to rlspec; the action's
// empty inputs do not hide them.
func TestActionTakesTheJobsEnv(t *testing.T) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skip("release binaries exist for linux and darwin only")
	}
	rel := stubRelease(t, false)
	r := newRunner(t, map[string]string{"version": "v0.1.0"},
		"RLSPEC_RELEASE_URL=file://"+rel, "STUB_EXIT=0", "TARGET_URL=http://127.0.0.1:9", "RL_LIMIT=20")
	gate := r.run().steps["Acceptance suite"]
	if !strings.Contains(gate.output, "TARGET_URL=http://127.0.0.1:9 RL_LIMIT=20") {
		t.Errorf("the job's env did not reach rlspec:\n%s", gate.output)
	}
}
