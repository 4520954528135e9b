package ci

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runGate runs ci/action/gate.sh as the action's step does, with a stub
// rlspec that prints the settings it was given, and returns that line.
func runGate(t *testing.T, env ...string) string {
	t.Helper()
	dir := t.TempDir()
	stub := filepath.Join(dir, "rlspec")
	script := "#!/bin/sh\necho \"TARGET_URL=${TARGET_URL-unset} RL_LIMIT=${RL_LIMIT-unset} TAGS=${TAGS-unset} REPORT_DIR=${REPORT_DIR-unset} INPUTS=$(env | grep -c '^RLSPEC_INPUT_')\"\n"
	if err := os.WriteFile(stub, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "output")
	if err := os.WriteFile(out, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", filepath.Join("action", "gate.sh"))
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "RLSPEC=" + stub, "RUNNER_TEMP=" + dir, "GITHUB_OUTPUT=" + out}, env...)
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("gate.sh: %v\n%s", err, b)
	}
	return strings.TrimSpace(string(b))
}

// TestGateKeepsTheJobsEnv: an input that is given sets its variable; one
// left empty leaves the variable as the job's env: has it (set, or unset),
// and the inputs themselves do not reach rlspec.
func TestGateKeepsTheJobsEnv(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		env  []string
		want string
	}{
		"job env, no inputs": {[]string{"TARGET_URL=http://job:1", "RL_LIMIT=20", "RLSPEC_INPUT_TARGET_URL=", "RLSPEC_INPUT_RL_LIMIT="},
			"TARGET_URL=http://job:1 RL_LIMIT=20 TAGS=unset"},
		"inputs over the job env": {[]string{"TARGET_URL=http://job:1", "RLSPEC_INPUT_TARGET_URL=http://input:2", "RLSPEC_INPUT_TAGS=@AC3"},
			"TARGET_URL=http://input:2 RL_LIMIT=unset TAGS=@AC3"},
		"neither": {[]string{"RLSPEC_INPUT_TARGET_URL=", "RLSPEC_INPUT_RL_LIMIT=", "RLSPEC_INPUT_TAGS="},
			"TARGET_URL=unset RL_LIMIT=unset TAGS=unset"},
		"embedded asked for": {[]string{"RLSPEC_INPUT_TARGET_URL=embedded"},
			"TARGET_URL=embedded RL_LIMIT=unset TAGS=unset"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := runGate(t, tc.env...)
			if !strings.HasPrefix(got, tc.want+" ") || !strings.HasSuffix(got, " INPUTS=0") {
				t.Errorf("rlspec got %q, want %q and no RLSPEC_INPUT_ variable", got, tc.want)
			}
		})
	}
	if got := runGate(t, "RLSPEC_INPUT_REPORT_DIR=/tmp/r"); !strings.Contains(got, "REPORT_DIR=/tmp/r ") {
		t.Errorf("report-dir input: %q", got)
	}
	if got := runGate(t, "REPORT_DIR=/tmp/job", "RLSPEC_INPUT_REPORT_DIR="); !strings.Contains(got, "REPORT_DIR=/tmp/job ") {
		t.Errorf("job env REPORT_DIR: %q", got)
	}
}

// TestActionInputsDoNotShadowTheJobEnv is the YAML check of action.yml: no
// step sets a variable rlspec reads from an input directly (a step's env:
// overrides the job's, so an empty input would hide the workflow's own
// TARGET_URL); inputs go in under the action's RLSPEC_ names.
func TestActionInputsDoNotShadowTheJobEnv(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	a := loadAction(t, root)
	n := 0
	for _, s := range a.Runs.Steps {
		for k, v := range s.Env {
			if !strings.Contains(v, "inputs.") {
				continue
			}
			n++
			if !strings.HasPrefix(k, "RLSPEC_") {
				t.Errorf("step %q sets %s from an input; pass it as RLSPEC_INPUT_%s so an empty input leaves the job's %s", s.Name, k, k, k)
			}
		}
	}
	if n == 0 {
		t.Error("no step of action.yml takes an input through env:")
	}
	// Every input that is a setting reaches the gate as RLSPEC_INPUT_<VARIABLE>.
	var gate map[string]string
	for _, s := range a.Runs.Steps {
		if s.ID == "gate" {
			gate = s.Env
		}
	}
	for name := range a.Inputs {
		switch name {
		case "version", "install", "artifact-name":
			continue
		}
		v := "RLSPEC_INPUT_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
		if want := "${{ inputs." + name + " }}"; gate[v] != want {
			t.Errorf("input %s: the gate step's %s is %q, want %q", name, v, gate[v], want)
		}
	}
	for _, name := range []string{"target-path", "target-headers", "key", "rl-burst", "rl-rate", "dialect"} {
		if _, ok := a.Inputs[name]; !ok {
			t.Errorf("action.yml has no input %s", name)
		}
	}
}
