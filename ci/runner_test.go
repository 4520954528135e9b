package ci

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// actionFile is the composite action's metadata, as far as the runner
// below reads it.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Uses  string            `yaml:"uses"`
	Env   map[string]string `yaml:"env"`
	With  map[string]string `yaml:"with"`
}

// stepResult is what one step did.
type stepResult struct {
	status string // success, failure, skipped
	output string // stdout and stderr
	with   map[string]string
}

// runResult is a whole run of the action.
type runResult struct {
	steps   map[string]*stepResult // by step name
	summary string                 // $GITHUB_STEP_SUMMARY
}

// localRunner runs action.yml's steps as the GitHub runner does for a
// composite action: each `run:` through `bash --noprofile --norc -eo
// pipefail`, `env:` evaluated, step outputs from $GITHUB_OUTPUT, $GITHUB_PATH
// prepended for later steps, `if:` conditions, and `uses:` steps recorded
// (with their `with:` evaluated) but not run. Expressions it does not know
// fail the test, so the runner keeps up with the action.
type localRunner struct {
	t          *testing.T
	root       string            // the action's path (the repository root)
	inputs     map[string]string // given inputs; defaults from action.yml
	actionRef  string            // github.action_ref
	env        []string          // the runner's environment
	temp       string            // $RUNNER_TEMP
	outputs    map[string]map[string]string
	failed     bool
	githubPath string
}

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

func loadAction(t *testing.T, root string) actionFile {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(raw, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml runs.using = %q, want composite", a.Runs.Using)
	}
	return a
}

// run runs every step of the action at r.root.
func (r *localRunner) run() runResult {
	t := r.t
	t.Helper()
	a := loadAction(t, r.root)
	for name := range r.inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("input %q is not declared in action.yml", name)
		}
	}
	for name, in := range a.Inputs {
		if _, ok := r.inputs[name]; !ok {
			r.inputs[name] = in.Default
		}
	}
	r.outputs = map[string]map[string]string{}
	r.githubPath = filepath.Join(r.temp, "github_path")
	summary := filepath.Join(r.temp, "step_summary")
	for _, f := range []string{r.githubPath, summary} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := runResult{steps: map[string]*stepResult{}}
	for i, s := range a.Runs.Steps {
		sr := &stepResult{status: "skipped"}
		res.steps[s.Name] = sr
		if !r.condition(s.If) {
			continue
		}
		switch {
		case s.Uses != "":
			sr.with = map[string]string{}
			for k, v := range s.With {
				sr.with[k] = r.eval(v)
			}
			sr.status = "success"
		case s.Run != "":
			if s.Shell != "bash" {
				t.Fatalf("step %q: shell %q; the runner here runs bash only", s.Name, s.Shell)
			}
			r.runStep(i, s, sr, summary)
		default:
			t.Fatalf("step %q has neither run nor uses", s.Name)
		}
	}
	raw, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	res.summary = string(raw)
	return res
}

func (r *localRunner) runStep(i int, s actionStep, sr *stepResult, summary string) {
	t := r.t
	dir := filepath.Join(r.temp, fmt.Sprintf("step%d", i+1))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	script, out := filepath.Join(dir, "run.sh"), filepath.Join(dir, "output")
	if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := append([]string{}, r.env...)
	env = append(env, "PATH="+r.path(), "RUNNER_TEMP="+r.temp, "GITHUB_ACTION_PATH="+r.root,
		"GITHUB_OUTPUT="+out, "GITHUB_PATH="+r.githubPath, "GITHUB_STEP_SUMMARY="+summary)
	for k, v := range s.Env {
		env = append(env, k+"="+r.eval(v))
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = r.temp
	cmd.Env = env
	b, err := cmd.CombinedOutput()
	sr.output = string(b)
	sr.status = "success"
	if err != nil {
		sr.status = "failure"
		r.failed = true
	}
	if s.ID != "" {
		r.outputs[s.ID] = readOutputs(t, out)
	}
}

// path is the runner's PATH with $GITHUB_PATH's entries before it.
func (r *localRunner) path() string {
	raw, err := os.ReadFile(r.githubPath)
	if err != nil {
		r.t.Fatal(err)
	}
	var dirs []string
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if l != "" {
			dirs = append([]string{l}, dirs...)
		}
	}
	return strings.Join(append(dirs, os.Getenv("PATH")), string(os.PathListSeparator))
}

func readOutputs(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			m[k] = v
		}
	}
	return m
}

// eval replaces every ${{ … }} in s.
func (r *localRunner) eval(s string) string {
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		return r.value(exprRE.FindStringSubmatch(m)[1])
	})
}

// value is one expression: inputs.X, github.action_path, github.action_ref,
// steps.ID.outputs.X.
func (r *localRunner) value(expr string) string {
	switch {
	case strings.HasPrefix(expr, "inputs."):
		v, ok := r.inputs[strings.TrimPrefix(expr, "inputs.")]
		if !ok {
			r.t.Fatalf("expression %q: no such input", expr)
		}
		return v
	case expr == "github.action_path":
		return r.root
	case expr == "github.action_ref":
		return r.actionRef
	case strings.HasPrefix(expr, "steps."):
		parts := strings.Split(expr, ".")
		if len(parts) != 4 || parts[2] != "outputs" {
			r.t.Fatalf("expression %q: the runner here knows steps.ID.outputs.NAME only", expr)
		}
		return r.outputs[parts[1]][parts[3]]
	}
	r.t.Fatalf("expression %q: unknown to the local runner", expr)
	return ""
}

// condition evaluates an `if:`: terms joined by &&, each always(),
// success(), failure(), or `EXPR != ”` / `EXPR == ”`. Without always() or
// failure() a step runs only while no step failed, as on GitHub.
func (r *localRunner) condition(cond string) bool {
	status := !r.failed // the implicit success()
	ok := true
	for _, term := range strings.Split(cond, "&&") {
		term = strings.TrimSpace(term)
		switch {
		case term == "":
		case term == "always()":
			status = true
		case term == "success()":
			ok = ok && !r.failed
		case term == "failure()":
			status = true
			ok = ok && r.failed
		case strings.HasSuffix(term, "!= ''"):
			ok = ok && r.value(strings.TrimSpace(strings.TrimSuffix(term, "!= ''"))) != ""
		case strings.HasSuffix(term, "== ''"):
			ok = ok && r.value(strings.TrimSpace(strings.TrimSuffix(term, "== ''"))) == ""
		default:
			r.t.Fatalf("condition %q: term %q unknown to the local runner", cond, term)
		}
	}
	return status && ok
}
