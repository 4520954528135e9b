package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadExpected(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "expected.md", `# x

needs: RESET_FORMAT=delta (dialects.md); PROFILE=leaky-bucket

| scenario | expected | reason | source |
| --- | --- | --- | --- |
| FW-1-01 | PASS | one window | a.py:1 |
| `+"`race`"+` | FAIL | oversells | a.py:2 |
`)
	e, err := ReadExpected(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Needs) != 2 || e.Needs[0] != (Need{"RESET_FORMAT", "delta", "dialects.md"}) || e.Needs[1] != (Need{"PROFILE", "leaky-bucket", ""}) {
		t.Errorf("needs = %+v", e.Needs)
	}
	if len(e.Rows) != 2 || e.Rows[0].ID != "FW-1-01" || e.Rows[1].ID != "race" || e.Rows[1].Verdict != Fail {
		t.Errorf("rows = %+v", e.Rows)
	}
	for name, bad := range map[string]string{
		"verdict":   "| FW-1-01 | OK | r | s |\n",
		"no source": "| FW-1-01 | PASS | r |  |\n",
		"twice":     "| FW-1-01 | PASS | r | s |\n| FW-1-01 | PASS | r | s |\n",
		"need":      "needs: delta\n| FW-1-01 | PASS | r | s |\n",
		"no rows":   "nothing\n",
	} {
		if _, err := ReadExpected(writeFile(t, dir, "bad.md", bad)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// help of an rlspec without the dialect settings, and of one with them.
const (
	oldHelp = `  -dialect value
    	x-ratelimit, ietf or status; default per profile (DIALECT)
  -limited-body value
    	JSON pointer=value(s) of a 429 body, e.g. /error/code=RATE_LIMITED (LIMITED_BODY)
  -profile value
    	prd, sliding-log, fixed-window, token-bucket or all (PROFILE) (default prd)
`
	newHelp = `  -dialect value
    	x-ratelimit, ratelimit-fields, ratelimit-dict, ietf, status or auto; default auto (DIALECT)
  -header-prefix value
    	prefix of the x-ratelimit headers, default X-RateLimit- (HEADER_PREFIX)
  -limited-body value
    	a refusal's body: /json/pointer=value[|value], text:<regexp> or none; default per profile (LIMITED_BODY)
  -limited-status value
    	status of a refusal, default 429 (LIMITED_STATUS)
  -profile value
    	prd, sliding-log, fixed-window, token-bucket or all (PROFILE) (default prd)
  -reset-format value
    	how X-RateLimit-Reset is written: unix, unix-ms, delta, http-date or auto (RESET_FORMAT)
`
)

func TestUnmet(t *testing.T) {
	needs := []Need{{"RESET_FORMAT", "delta", ""}, {"LIMITED_BODY", "text:<regexp>", ""}, {"LIMITED_BODY", "none", ""},
		{"LIMITED_STATUS", "503", ""}, {"HEADER_PREFIX", "X-Rate-Limit-", ""}, {"DIALECT", "ratelimit-fields", ""},
		{"DIALECT", "status", ""}, {"PROFILE", "leaky-bucket", ""}, {"PROFILE", "token-bucket", ""}}
	names := func(ns []Need) string {
		var s []string
		for _, n := range ns {
			s = append(s, n.Var+"="+n.Value)
		}
		return strings.Join(s, " ")
	}
	if got, want := names(Unmet(needs, oldHelp)), "RESET_FORMAT=delta LIMITED_BODY=text:<regexp> LIMITED_BODY=none LIMITED_STATUS=503 HEADER_PREFIX=X-Rate-Limit- DIALECT=ratelimit-fields PROFILE=leaky-bucket"; got != want {
		t.Errorf("old rlspec: unmet %q, want %q", got, want)
	}
	if got, want := names(Unmet(needs, newHelp)), "PROFILE=leaky-bucket"; got != want {
		t.Errorf("new rlspec: unmet %q, want %q", got, want)
	}
}

func TestCompare(t *testing.T) {
	rows := []Row{{ID: "FW-1-01", Verdict: Pass}, {ID: "FW-5-01", Verdict: Fail}, {ID: "FW-6-01", Verdict: Skipped}, {ID: "race", Verdict: Pass},
		{ID: "FW-3-02", Verdict: Fail, Reachable: true}, {ID: "FW-4-01", Verdict: Fail, Reachable: true}, {ID: "FW-2-01", Verdict: Fail, Reachable: true}}
	got := map[string]Result{
		"FW-1-01":   {Verdict: Pass},
		"FW-3-02":   {Verdict: Pass},
		"FW-4-01":   {Verdict: Fail},
		"FW-2-01":   {Skipped, "a time assumption broke"},
		"FW-5-01":   {Pass, ""},
		"race":      {Verdict: Pass},
		"PN-1-02":   {Skipped, "not claimed: FEATURES does not include penalties"},
		"FW-7-01":   {Fail, "keyless shared"},
		"IETF-1-02": {Skipped, "not claimed"},
	}
	var s []string
	for _, d := range Compare(rows, got) {
		s = append(s, d.String())
	}
	want := []string{
		"FW-5-01: expected FAIL, rlspec says PASS",
		"FW-6-01: expected SKIPPED, rlspec says SKIPPED (rlspec did not report this scenario)",
		"FW-2-01: expected FAIL, rlspec says SKIPPED (a time assumption broke)",
		"FW-7-01: expected (not listed), rlspec says FAIL (keyless shared)",
	}
	// FW-6-01 is missing from rlspec's report: expected SKIPPED or not, a
	// scenario rlspec no longer runs is a difference. "FAIL or PASS" rows
	// (FW-2-01, FW-3-02, FW-4-01) take either, and nothing else.
	if strings.Join(s, "\n") != strings.Join(want, "\n") {
		t.Errorf("diffs:\n%s", strings.Join(s, "\n"))
	}
}

func TestCell(t *testing.T) {
	for _, c := range []struct {
		rs   []Result
		want string
	}{
		{[]Result{{Verdict: Pass}, {Verdict: Pass}}, "PASS"},
		{[]Result{{Verdict: Pass}, {Fail, "a|b"}}, `FAIL (a\|b)`},
		{[]Result{{Skipped, "status"}, {Verdict: Pass}}, "PASS"},
		{[]Result{{Skipped, "status"}}, "SKIPPED (status)"},
	} {
		if got := cell(c.rs); got != c.want {
			t.Errorf("cell(%v) = %q, want %q", c.rs, got, c.want)
		}
	}
	if clauseOf("FW-3-01") != "FW-3" || clauseOf("race") != "race" || clauseOf("IETF-1-02") != "IETF-1" {
		t.Error("clauseOf")
	}
}

// TestTargetsParse reads every committed target: its env files and its
// expected.md, so a broken table fails here and not in make interop.
func TestTargetsParse(t *testing.T) {
	ts, err := Discover("..")
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) < 10 {
		t.Fatalf("%d targets under interop/, want the issue's list", len(ts))
	}
	for _, tg := range ts {
		if _, err := ReadExpected(filepath.Join(tg.Dir, "expected.md")); err != nil {
			t.Error(err)
		}
		if tg.Env["PROFILE"] == "" {
			t.Errorf("%s: no PROFILE", tg.Dir)
		}
	}
}

func TestRaceBudgetAndTerms(t *testing.T) {
	plain := Target{Dir: "x", Env: map[string]string{}}
	if d, err := raceBudget(plain); err != nil || d != raceTimeout {
		t.Errorf("default budget = %v, %v; want %v", d, err, raceTimeout)
	}
	if s := raceTerms(plain); s != "" {
		t.Errorf("default terms = %q, want none", s)
	}
	own := Target{Dir: "x", Env: map[string]string{keyRaceTime: "6m", keyRaceSeed: "42"}}
	if d, err := raceBudget(own); err != nil || d.String() != "6m0s" {
		t.Errorf("budget = %v, %v; want 6m", d, err)
	}
	if s := raceTerms(own); !strings.Contains(s, "budget 6m") || !strings.Contains(s, "SEED=42") {
		t.Errorf("terms = %q, want the budget and the seed stated", s)
	}
	for _, bad := range []string{"soon", "0s", "-1m"} {
		if _, err := raceBudget(Target{Dir: "x", Env: map[string]string{keyRaceTime: bad}}); err == nil {
			t.Errorf("budget %q: no error", bad)
		}
	}
}
