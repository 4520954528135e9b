package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Outcome is what the matrix says about one target.
type Outcome struct {
	Target   Target
	Version  string
	Skip     string            // the whole target was not run, and why
	Results  map[string]Result // scenario id (and "race") -> rlspec's verdict
	Expected Expected
	Diffs    []Diff
	Probe    *ProbeOutcome // what rlspec probe suggested; nil when not run
	Took     time.Duration
}

// Rlspec is the rlspec binary the matrix runs, and what it says about
// itself.
type Rlspec struct {
	Bin     string
	Reports string // each target's reports go to Reports/<limiter>-<case>/
	Help    string // `acceptance -h`: which settings it has
	Version string
	// ProbeProfiles are the profiles `rlspec probe` can suggest.
	ProbeProfiles []string
}

// rlspecVars are the settings of rlspec the driver's environment must not
// give a target (make exports REPORT_DIR; a shell may hold others).
var rlspecVars = []string{"TARGET_", "RL_", "PROFILE=", "FEATURES=", "KEY=", "KEY_FORMAT=", "DIALECT=",
	"RESET_FORMAT=", "HEADER_PREFIX=", "LIMITED_", "WINDOW_ALIGN=", "MAX_WAIT=", "TAGS=", "STRICT=",
	"REPORT_DIR=", "CHECKS=", "SEED=", "REPEAT=", "REPLICAS=", "CLIENT_IPS=", "STORE", "IMPLEMENTATION=",
	"BODY_TEMPLATE=", "DB_SCHEMA=", "BYPASS_HEADERS=", "FAULT="}

func cleanEnv() []string {
	var env []string
next:
	for _, kv := range os.Environ() {
		for _, p := range rlspecVars {
			if strings.HasPrefix(kv, p) {
				continue next
			}
		}
		env = append(env, kv)
	}
	return env
}

// RunTarget installs, starts and checks one target.
func RunTarget(ctx context.Context, rl Rlspec, t Target, aptUpdated *bool) (o Outcome) {
	began := time.Now()
	o = Outcome{Target: t, Results: map[string]Result{}}
	defer func() { o.Took = time.Since(began) }()
	exp, err := ReadExpected(filepath.Join(t.Dir, "expected.md"))
	if err != nil {
		o.Diffs = []Diff{{ID: "expected.md", Got: Result{Fail, err.Error()}}}
		return o
	}
	o.Expected = exp
	if unmet := Unmet(exp.Needs, rl.Help); len(unmet) > 0 {
		var s []string
		for _, n := range unmet {
			s = append(s, n.String())
		}
		o.Skip = "needs " + strings.Join(s, ", ")
	}
	if skip, err := ensureRuntime(ctx, t, aptUpdated); err != nil || skip != "" {
		o.Skip = cmp.Or(o.Skip, skip)
		o.Version = version(ctx, t)
		if err != nil {
			o.setupFailed("install", err)
		}
		return o
	}
	o.Version = version(ctx, t)
	work, err := os.MkdirTemp("", "interop-")
	if err != nil {
		o.Diffs = []Diff{{ID: "start", Got: Result{Fail, err.Error()}}}
		return o
	}
	defer os.RemoveAll(work)
	run, err := start(ctx, t, work)
	if err != nil {
		o.setupFailed("start", err)
		return o
	}
	defer run.Stop()
	// the probe first, on a target nothing has touched yet; a target that
	// waits for a profile rlspec lacks is probed all the same
	p := probeTarget(ctx, rl, t, run.URLs[0], probeDir(rl, t))
	o.Probe = &p
	if o.Skip != "" {
		p.AsPrintedNot = "the target is skipped"
		return o
	}
	env := append(cleanEnv(), t.Settings()...)
	env = append(env, "IMPLEMENTATION="+t.Label()+" "+o.Version)
	if len(run.URLs) > 1 {
		env = append(env, "TARGET_URLS="+strings.Join(run.URLs, ","))
	} else {
		env = append(env, "TARGET_URL="+run.URLs[0])
	}
	reports := filepath.Join(rl.Reports, filepath.Base(t.Limiter)+"-"+t.Case)
	o.Results = acceptance(ctx, rl, env, filepath.Join(reports, "acceptance"))
	if r, ok := o.Results[couldNotRun]; ok {
		// every scenario gets the sentence that stopped the run
		delete(o.Results, couldNotRun)
		for _, row := range exp.Rows {
			o.Results[row.ID] = r
		}
	}
	o.Results["race"] = race(ctx, rl, t, env, filepath.Join(reports, "race"))
	asPrinted(ctx, rl, t, run.URLs[0], filepath.Join(reports, "probe", "acceptance"), exp, o.Probe)
	o.Diffs = Compare(exp.Rows, o.Results)
	return o
}

// setupFailed records a failed install or start: a difference, except on
// a target skipped anyway, where only its probe is lost.
func (o *Outcome) setupFailed(step string, err error) {
	if o.Skip != "" {
		o.Probe = &ProbeOutcome{Err: step + ": " + err.Error()}
		return
	}
	o.Diffs = []Diff{{ID: step, Got: Result{Fail, err.Error()}}}
}

// couldNotRun is the result's key of an acceptance run that gave no
// verdicts.
const couldNotRun = "acceptance"

// version runs the target's INTEROP_VERSION command.
func version(ctx context.Context, t Target) string {
	v := t.Env[keyVersion]
	if v == "" {
		return "?"
	}
	out, err := shell(ctx, t.Limiter, v, nil)
	if err != nil {
		return "?"
	}
	return oneLine(out)
}

// acceptance runs `rlspec acceptance` and reads its junit.xml. A run that
// could not start (exit 2) gives every scenario a FAIL saying why.
func acceptance(ctx context.Context, rl Rlspec, env []string, dir string) map[string]Result {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, rl.Bin, "acceptance")
	c.Env = append(env, "REPORT_DIR="+dir)
	out, err := c.CombinedOutput()
	keep(dir, "output.txt", out)
	if code := exitCode(err); code != 0 && code != 1 {
		return map[string]Result{couldNotRun: {Fail, fmt.Sprintf("could not run (exit %d): %s", code, tail(string(out)))}}
	}
	res, rerr := ReadJUnit(filepath.Join(dir, "junit.xml"))
	if rerr != nil {
		return map[string]Result{couldNotRun: {Fail, rerr.Error()}}
	}
	return res
}

// race runs a short `rlspec race` (INTEROP_RACE_CHECKS workloads): exit 0
// PASS, 1 FAIL with its first line, 2 FAIL "could not run".
func race(ctx context.Context, rl Rlspec, t Target, env []string, dir string) Result {
	checks := cmp.Or(t.Env[keyRace], "3")
	if checks == "0" {
		return Result{Skipped, "INTEROP_RACE_CHECKS=0"}
	}
	budget, err := raceBudget(t)
	if err != nil {
		return Result{Fail, "could not run: " + err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	c := exec.CommandContext(ctx, rl.Bin, "race")
	// a found workload is replayed 3 times, not 20: the matrix wants the
	// verdict, the reports keep the reproduction
	c.Env = append(env, "CHECKS="+checks, "REPEAT=3", "REPORT_DIR="+dir)
	if seed := t.Env[keyRaceSeed]; seed != "" {
		c.Env = append(c.Env, "SEED="+seed)
	}
	out, err := c.CombinedOutput()
	keep(dir, "output.txt", out)
	if ctx.Err() != nil {
		return Result{Fail, fmt.Sprintf("timed out after %s: %s", budget, tail(string(out)))}
	}
	switch exitCode(err) {
	case 0:
		return Result{Verdict: Pass}
	case 1:
		return Result{Fail, violation(string(out))}
	default:
		return Result{Fail, "could not run: " + tail(string(out))}
	}
}

// keep writes a command's output beside its reports (best effort: the
// verdicts do not depend on it).
func keep(dir, name string, out []byte) {
	if os.MkdirAll(dir, 0o755) == nil {
		_ = os.WriteFile(filepath.Join(dir, name), out, 0o644)
	}
}

// raceTimeout bounds one target's short race hunt unless its env files
// give it a budget of its own (INTEROP_RACE_BUDGET, stated in the matrix).
const raceTimeout = 3 * time.Minute

// raceBudget is t's race budget: INTEROP_RACE_BUDGET or raceTimeout.
func raceBudget(t Target) (time.Duration, error) {
	v := t.Env[keyRaceTime]
	if v == "" {
		return raceTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s: %s=%q is not a positive Go duration", t.Dir, keyRaceTime, v)
	}
	return d, nil
}

// raceTerms says how t's race differs from the default hunt (its own
// budget, a pinned seed), for the matrix's note; "" when it does not.
func raceTerms(t Target) string {
	var s []string
	if v := t.Env[keyRaceTime]; v != "" {
		s = append(s, "budget "+v)
	}
	if v := t.Env[keyRaceSeed]; v != "" {
		s = append(s, "SEED="+v)
	}
	if len(s) == 0 {
		return ""
	}
	return "race: " + strings.Join(s, ", ") + " (target.env says why)"
}

// violation is the line of race's output that names what it found.
func violation(out string) string {
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, "  - "); ok {
			return oneLine(v)
		}
	}
	return tail(out)
}

func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
