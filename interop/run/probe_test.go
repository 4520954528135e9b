package main

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"time"
)

// probeOut is `rlspec probe`'s report as it writes it (probe/report.go).
const probeOut = `rlspec probe: GET http://127.0.0.1:35677/limited (on loopback): 7 of 30 requests sent, 0s waited

seen (findings, not a verdict):
  statuses: key A: 5×200, 429; key B: 200
  refusal: HTTP 429 [no rate-limit fields] "{\"message\":\"rate limit exceeded\"}"

suggested settings (settings to try, not a verdict):
  PROFILE=fixed-window                         # a burst on a fresh key was refused after a fixed count
  RL_LIMIT=5                                   # 5 allowed on a fresh key before the first refusal
  RL_WINDOW=60s                                # a placeholder: the answers show no window
  WINDOW_ALIGN=first-request                   # the answers carry no Reset: a guess
  DIALECT=status                               # the answers carry no rate-limit fields
  LIMITED_STATUS=429                           # the status of the first refusal
  LIMITED_BODY='/message=it'\''s # a limit'    # the refusal's JSON body holds it at /message

not determined:
  - when the quota comes back: the refusal carries neither Retry-After nor a Reset
  - the window's length: the answers show none; RL_WINDOW is a placeholder

to run the acceptance suite with these settings:

  TARGET_URL='http://127.0.0.1:35677' PROFILE=fixed-window rlspec acceptance
`

func TestParseProbe(t *testing.T) {
	sug, unknown, err := ParseProbe(probeOut)
	if err != nil {
		t.Fatal(err)
	}
	want := []Setting{
		{"PROFILE", "fixed-window", "a burst on a fresh key was refused after a fixed count"},
		{"RL_LIMIT", "5", "5 allowed on a fresh key before the first refusal"},
		{"RL_WINDOW", "60s", "a placeholder: the answers show no window"},
		{"WINDOW_ALIGN", "first-request", "the answers carry no Reset: a guess"},
		{"DIALECT", "status", "the answers carry no rate-limit fields"},
		{"LIMITED_STATUS", "429", "the status of the first refusal"},
		{"LIMITED_BODY", "/message=it's # a limit", "the refusal's JSON body holds it at /message"},
	}
	if !reflect.DeepEqual(sug, want) {
		t.Errorf("suggested:\n got %q\nwant %q", sug, want)
	}
	if len(unknown) != 2 || !strings.HasPrefix(unknown[1], "the window's length") {
		t.Errorf("not determined: %q", unknown)
	}
	for name, out := range map[string]string{
		"no suggestion":  "rlspec probe: x\n\nnot determined:\n  - everything\n",
		"not NAME=value": "suggested settings (x):\n  PROFILE\n",
		"open quote":     "suggested settings (x):\n  LIMITED_BODY='abc  # why\n",
	} {
		if _, _, err := ParseProbe(out); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestShellWord(t *testing.T) {
	for in, want := range map[string]struct {
		w string
		n int
	}{
		"abc  # why":      {"abc", 3},
		"'a b'  # why":    {"a b", 5},
		`'it'\''s' # why`: {"it's", 9},
		"''":              {"", 2},
	} {
		w, n, err := shellWord(in)
		if err != nil || w != want.w || n != want.n {
			t.Errorf("shellWord(%q) = %q, %d, %v; want %q, %d", in, w, n, err, want.w, want.n)
		}
	}
}

func TestCompareProbe(t *testing.T) {
	sug, _, err := ParseProbe(probeOut)
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"PROFILE": "fixed-window", "RL_LIMIT": "5.0", "RL_WINDOW": "60000ms", "DIALECT": "status",
		"FEATURES": "counts-refused", "KEY": "header:X-User-ID", "INTEROP_NAME": "x"}
	checks, extra := CompareProbe(env, sug)
	want := []Check{
		{"PROFILE", "fixed-window", "fixed-window", true, false},
		{"RL_LIMIT", "5.0", "5", true, false},
		{"RL_WINDOW", "60000ms", "60s", true, true},
		{"FEATURES", "counts-refused", "", false, false},
		{"DIALECT", "status", "status", true, false},
	}
	if !reflect.DeepEqual(checks, want) {
		t.Errorf("checks:\n got %+v\nwant %+v", checks, want)
	}
	if len(extra) != 2 || extra[0].Name != "WINDOW_ALIGN" || extra[1].Name != "LIMITED_BODY" {
		t.Errorf("extra: %+v", extra)
	}
	p := ProbeOutcome{Checks: checks}
	if got := p.Agreement(); got != "partly" {
		t.Errorf("a setting not suggested: %q, want partly", got)
	}

	env = map[string]string{"PROFILE": "token-bucket", "RL_WINDOW": "3s", "LIMITED_STATUS": "503"}
	checks, _ = CompareProbe(env, sug)
	p = ProbeOutcome{Checks: checks}
	if got := p.Agreement(); got != "differs" {
		t.Errorf("another profile: %q, want differs (%+v)", got, checks)
	}
	env = map[string]string{"PROFILE": "fixed-window", "RL_WINDOW": "3s"}
	checks, _ = CompareProbe(env, sug)
	if got := (ProbeOutcome{Checks: checks}).Agreement(); got != "differs on placeholders" {
		t.Errorf("only the placeholder window differs: %q (%+v)", got, checks)
	}
	// LIMITED_STATUS left at its default: a suggested 503 differs, 429 is no check
	checks, _ = CompareProbe(map[string]string{}, []Setting{{Name: "LIMITED_STATUS", Value: "503"}})
	if len(checks) != 1 || checks[0].Same || checks[0].Want != "429 (default)" {
		t.Errorf("a 503 against the default: %+v", checks)
	}
	if checks, _ := CompareProbe(map[string]string{}, []Setting{{Name: "LIMITED_STATUS", Value: "429"}}); len(checks) != 0 {
		t.Errorf("a 429 against the default: %+v", checks)
	}
	if got := (ProbeOutcome{Err: "exit 2: no"}).Agreement(); got != "could not probe" {
		t.Errorf("an error: %q", got)
	}
	if got := (ProbeOutcome{Checks: []Check{{"DIALECT", "status", "status", true, false}}}).Agreement(); got != "same" {
		t.Errorf("all same: %q", got)
	}
}

func TestProbeProfilesRe(t *testing.T) {
	help := "  -profile value\n    \tthe design, when you know it: prd, sliding-log, fixed-window or token-bucket; unset, the probe suggests one (PROFILE)\n"
	m := probeProfilesRe.FindStringSubmatch(help)
	if m == nil {
		t.Fatal("no match")
	}
	got := strings.FieldsFunc(strings.ReplaceAll(m[1], " or ", ", "), func(r rune) bool { return r == ',' || r == ' ' })
	if want := []string{"prd", "sliding-log", "fixed-window", "token-bucket"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A probe's disagreement is in its section, never among the differences.
func TestMatrixProbeSection(t *testing.T) {
	sug, unknown, _ := ParseProbe(probeOut)
	env := map[string]string{keyName: "Echo", "PROFILE": "token-bucket", "RL_BURST": "5", "RL_RATE": "2", "DIALECT": "status"}
	checks, extra := CompareProbe(env, sug)
	o := Outcome{Target: Target{Case: "memory-store", Env: env}, Version: "v1", Results: map[string]Result{"TB-1-01": {Verdict: Pass}},
		Expected: Expected{Rows: []Row{{ID: "TB-1-01", Verdict: Pass}}},
		Probe:    &ProbeOutcome{Suggested: sug, Unknown: unknown, Checks: checks, Extra: extra, Took: 2 * time.Second, Ran: true}}
	skipped := Outcome{Target: Target{Case: "delay", Env: map[string]string{keyName: "nginx", "PROFILE": "leaky-bucket"}}, Skip: "needs PROFILE=leaky-bucket",
		Probe: &ProbeOutcome{Err: "start: nginx exited"}}
	var b bytes.Buffer
	rl := Rlspec{Version: "rlspec test", ProbeProfiles: []string{"prd", "sliding-log", "fixed-window", "token-bucket"}}
	if err := WriteMatrix(&b, rl, []Outcome{o, skipped}, time.Unix(0, 0), time.Minute); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	for _, want := range []string{
		"## Differences from expected.md\n\nNone.",
		"| Echo memory-store | `PROFILE=fixed-window` `RL_LIMIT=5` `RL_WINDOW=60s`",
		"| `PROFILE=token-bucket` (probe: fixed-window), `RL_BURST=5` (not suggested), `RL_RATE=2` (not suggested) | differs | not run | 2s |",
		"| nginx delay | — |  | could not probe (the probe has no leaky-bucket to suggest): start: nginx exited | not run |",
		"  - the window's length: the answers show none; RL_WINDOW is a placeholder",
		"- nginx delay: could not probe: start: nginx exited",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("matrix lacks %q:\n%s", want, doc)
		}
	}
}

func TestPrintedText(t *testing.T) {
	for want, p := range map[string]ProbeOutcome{
		"not run: another profile": {AsPrintedNot: "another profile"},
		"not run":                  {},
		"as expected.md":           {AsPrintedRan: true},
		"1 differ: FW-2-01: expected PASS, rlspec says FAIL (late)": {AsPrintedRan: true,
			AsPrinted: []Diff{{ID: "FW-2-01", Expected: Pass, Got: Result{Fail, "late"}}}},
	} {
		if got := printedText(p); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestAcceptanceRows(t *testing.T) {
	rows := []Row{{ID: "FW-1-01", Verdict: Pass}, {ID: "race", Verdict: Fail}}
	got := Compare(acceptanceRows(rows), map[string]Result{"FW-1-01": {Verdict: Pass}})
	if len(got) != 0 {
		t.Errorf("an acceptance run compared with the race's row: %v", got)
	}
}

// TestCompareProbeNodelay: a suggested token bucket of B is target.env's
// leaky bucket in LB_MODE=nodelay with a queue of B − 1, and only there.
func TestCompareProbeNodelay(t *testing.T) {
	sug := []Setting{{Name: "PROFILE", Value: "token-bucket"}, {Name: "RL_BURST", Value: "6"}, {Name: "RL_RATE", Value: "2"}}
	env := map[string]string{"PROFILE": "leaky-bucket", "LB_MODE": "nodelay", "RL_BURST": "5", "RL_RATE": "2"}
	checks, _ := CompareProbe(env, sug)
	if got := (ProbeOutcome{Checks: checks}).Agreement(); got != "same" {
		t.Errorf("nodelay as a token bucket of B + 1: %q (%+v)", got, checks)
	}
	env["LB_MODE"] = "delay"
	checks, _ = CompareProbe(env, sug)
	if got := (ProbeOutcome{Checks: checks}).Agreement(); got != "differs" {
		t.Errorf("delay is no token bucket: %q (%+v)", got, checks)
	}
}
