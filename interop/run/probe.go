package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// probeGiven are the settings a user knows without reading the limiter's
// configuration — where the endpoint is, how to ask it, how its clients
// are told apart — and so the only ones the probe is given. The design,
// its numbers and the dialect are what the probe must find.
var probeGiven = []string{"TARGET_PATH", "TARGET_METHOD", "TARGET_HEADERS", "BODY_TEMPLATE", "KEY", "KEY_FORMAT", "CLIENT_IPS", "MAX_WAIT"}

// probeCompared are target.env's settings the probe's suggestion is
// compared with; LIMITED_STATUS defaults to 429 on both sides.
var probeCompared = []string{"PROFILE", "RL_LIMIT", "RL_WINDOW", "WINDOW_ALIGN", "RL_BURST", "RL_RATE", "LB_MODE", "FEATURES",
	"DIALECT", "RESET_FORMAT", "HEADER_PREFIX", "LIMITED_STATUS", "LIMITED_BODY"}

// ProbeOutcome is what `rlspec probe` suggested for a target and how it
// compares with target.env. It never counts as a difference from
// expected.md: it is the probe's quality, reported in the matrix.
type ProbeOutcome struct {
	Err       string    // the probe could not run: its sentence
	Suggested []Setting // the suggested settings, in the order printed
	Unknown   []string  // "not determined:" — what it could not tell, and why
	Checks    []Check   // target.env's settings against the suggestion
	Extra     []Setting // suggested where target.env keeps rlspec's default
	Took      time.Duration
	Ran       bool
	// AsPrinted are the differences from expected.md of an acceptance run
	// with the suggested settings (nil: not run, and AsPrintedNot says why)
	AsPrinted    []Diff
	AsPrintedRan bool
	AsPrintedNot string
}

// Setting is one suggested NAME=value and the probe's reason for it.
type Setting struct{ Name, Value, Why string }

// guessed says the probe itself calls the value a placeholder or a guess.
func (s Setting) guessed() bool {
	return strings.Contains(s.Why, "placeholder") || strings.Contains(s.Why, "a guess")
}

// Check is one of target.env's settings against the probe's suggestion.
type Check struct {
	Name, Want, Got string // Got "" when the probe suggested nothing
	Same            bool
	Guessed         bool // the probe called its value a placeholder or a guess
}

// Agreement sums the checks up: "same"; "partly" when some were not
// suggested; "differs on placeholders" when every value that differs is
// one the probe called a placeholder or a guess; else "differs".
func (p ProbeOutcome) Agreement() string {
	if p.Err != "" {
		return "could not probe"
	}
	out, guessed, differs := "same", false, false
	for _, c := range p.Checks {
		switch {
		case c.Got == "":
			out = "partly"
		case !c.Same && c.Guessed:
			guessed = true
		case !c.Same:
			differs = true
		}
	}
	switch {
	case differs:
		return "differs"
	case guessed:
		return "differs on placeholders"
	}
	return out
}

// probeTarget runs `rlspec probe` on url with the target's probeGiven
// settings only, keeps its output beside the reports, and compares.
func probeTarget(ctx context.Context, rl Rlspec, t Target, url, dir string) ProbeOutcome {
	began := time.Now()
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	c := exec.CommandContext(ctx, rl.Bin, "probe")
	c.Env = probeEnv(t, url)
	out, err := c.CombinedOutput()
	keep(dir, "probe.txt", out)
	p := ProbeOutcome{Took: time.Since(began)}
	if err != nil {
		p.Err = fmt.Sprintf("exit %d: %s", exitCode(err), tail(string(out)))
		return p
	}
	p.Ran = true
	p.Suggested, p.Unknown, err = ParseProbe(string(out))
	if err != nil {
		p.Err = err.Error()
		return p
	}
	p.Checks, p.Extra = CompareProbe(t.Env, p.Suggested)
	return p
}

// probeEnv is the environment of a probe, and of an acceptance run with
// its suggestion: the driver's, the target's URL and probeGiven settings.
func probeEnv(t Target, url string) []string {
	env := append(cleanEnv(), "TARGET_URL="+url)
	for _, k := range probeGiven {
		if v, ok := t.Env[k]; ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// asPrinted runs acceptance with the probe's suggestion, as its printed
// command would, when the suggestion names target.env's profile (another
// profile's scenarios have no expectation to compare with), and keeps the
// differences from expected.md in p.
func asPrinted(ctx context.Context, rl Rlspec, t Target, url, dir string, exp Expected, p *ProbeOutcome) {
	if p.Err != "" {
		return
	}
	prof := ""
	env := probeEnv(t, url)
	for _, s := range p.Suggested {
		env = append(env, s.Name+"="+s.Value)
		if s.Name == "PROFILE" {
			prof = s.Value
		}
	}
	if prof != t.Env["PROFILE"] {
		p.AsPrintedNot = "another profile"
		return
	}
	res := acceptance(ctx, rl, env, dir)
	if r, ok := res[couldNotRun]; ok {
		p.AsPrinted = []Diff{{ID: "acceptance", Got: r}}
	} else {
		p.AsPrinted = Compare(acceptanceRows(exp.Rows), res)
	}
	p.AsPrintedRan = true
}

// ParseProbe reads `rlspec probe`'s report: the "suggested settings"
// lines (NAME=value  # why, the value one shell word) and the "not
// determined:" items.
func ParseProbe(out string) ([]Setting, []string, error) {
	var sug []Setting
	var unknown []string
	section := ""
	for _, line := range strings.Split(out, "\n") {
		switch {
		case strings.HasPrefix(line, "suggested settings"):
			section = "suggested"
			continue
		case line == "not determined:":
			section = "unknown"
			continue
		case line == "" || !strings.HasPrefix(line, "  "):
			section = ""
			continue
		}
		body := strings.TrimSpace(line)
		switch section {
		case "suggested":
			name, rest, ok := strings.Cut(body, "=")
			if !ok {
				return nil, nil, fmt.Errorf("probe output: %q is not NAME=value", body)
			}
			v, n, err := shellWord(rest)
			if err != nil {
				return nil, nil, fmt.Errorf("probe output: %s: %w", name, err)
			}
			_, why, _ := strings.Cut(rest[n:], "# ")
			sug = append(sug, Setting{name, v, strings.TrimSpace(why)})
		case "unknown":
			if item, ok := strings.CutPrefix(body, "- "); ok {
				unknown = append(unknown, item)
			}
		}
	}
	if len(sug) == 0 {
		return nil, nil, fmt.Errorf("probe output has no suggested settings")
	}
	return sug, unknown, nil
}

// shellWord reads the shell word s begins with (plain up to a space, or
// single-quoted with '\” for a quote) and how many bytes of s it took.
func shellWord(s string) (string, int, error) {
	if !strings.HasPrefix(s, "'") {
		w, _, _ := strings.Cut(s, " ")
		return w, len(w), nil
	}
	var b strings.Builder
	for at := 1; ; {
		i := strings.IndexByte(s[at:], '\'')
		if i < 0 {
			return "", 0, fmt.Errorf("unterminated quote in %q", s)
		}
		b.WriteString(s[at : at+i])
		at += i + 1
		if !strings.HasPrefix(s[at:], `\''`) {
			return b.String(), at, nil
		}
		b.WriteByte('\'')
		at += 3
	}
}

// CompareProbe checks target.env's probeCompared settings against the
// suggestion; the suggested settings target.env leaves at their default
// are Extra.
func CompareProbe(env map[string]string, sug []Setting) (checks []Check, extra []Setting) {
	got, guessed := map[string]string{}, map[string]bool{}
	for _, s := range sug {
		got[s.Name], guessed[s.Name] = s.Value, s.guessed()
	}
	nodelayAsTokens(env, got)
	for _, k := range probeCompared {
		want, ok := env[k]
		if k == "LIMITED_STATUS" && !ok {
			if g, sg := got[k]; sg && g != "429" {
				checks = append(checks, Check{k, "429 (default)", g, false, guessed[k]})
			}
			continue
		}
		if !ok {
			continue
		}
		g := got[k]
		checks = append(checks, Check{k, want, g, g != "" && sameSetting(k, want, g), guessed[k]})
	}
	for _, s := range sug {
		if _, ok := env[s.Name]; !ok && slices.Contains(probeCompared, s.Name) && s.Name != "LIMITED_STATUS" {
			extra = append(extra, s)
		}
	}
	return checks, extra
}

// nodelayAsTokens reads a suggested token bucket of B as the leaky bucket
// in LB_MODE=nodelay with a queue of B − 1 where target.env claims one:
// profiles.md checks nodelay with the token-bucket clauses for B + 1, no
// answer tells the two apart, and the probe says so beside its suggestion.
func nodelayAsTokens(env, got map[string]string) {
	if env["PROFILE"] != "leaky-bucket" || env["LB_MODE"] != "nodelay" || got["PROFILE"] != "token-bucket" {
		return
	}
	b, err := strconv.Atoi(got["RL_BURST"])
	if err != nil || b < 1 {
		return
	}
	got["PROFILE"], got["RL_BURST"], got["LB_MODE"] = "leaky-bucket", strconv.Itoa(b-1), "nodelay"
}

// sameSetting compares durations and rates as numbers, the rest as words.
func sameSetting(k, a, b string) bool {
	switch k {
	case "RL_WINDOW":
		da, ea := time.ParseDuration(a)
		db, eb := time.ParseDuration(b)
		return ea == nil && eb == nil && da == db
	case "RL_RATE", "RL_LIMIT", "RL_BURST":
		fa, ea := strconv.ParseFloat(a, 64)
		fb, eb := strconv.ParseFloat(b, 64)
		return ea == nil && eb == nil && fa == fb
	}
	return strings.EqualFold(a, b)
}

var probeProfilesRe = regexp.MustCompile(`the design, when you know it: ([^;]+);`)

// probeProfiles are the profiles `rlspec probe -h` says it suggests.
func probeProfiles(bin string) []string {
	help, _ := exec.Command(bin, "probe", "-h").CombinedOutput() // -h exits 0 or 2
	m := probeProfilesRe.FindStringSubmatch(string(help))
	if m == nil {
		return nil
	}
	return strings.FieldsFunc(strings.ReplaceAll(m[1], " or ", ", "), func(r rune) bool { return r == ',' || r == ' ' })
}

// probeDir is where a target's probe output goes.
func probeDir(rl Rlspec, t Target) string {
	return filepath.Join(rl.Reports, filepath.Base(t.Limiter)+"-"+t.Case, "probe")
}

// acceptanceRows are the rows of acceptance's scenarios: all but the
// race's.
func acceptanceRows(rows []Row) []Row {
	var out []Row
	for _, r := range rows {
		if r.ID != "race" {
			out = append(out, r)
		}
	}
	return out
}
