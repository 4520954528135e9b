package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Verdict is a scenario's outcome.
type Verdict string

// The verdicts rlspec gives and expected.md names.
const (
	Pass    Verdict = "PASS"
	Fail    Verdict = "FAIL"
	Skipped Verdict = "SKIPPED"
)

// Row is one row of expected.md: a scenario id (or "race"), the verdict the
// limiter's source implies, why, and the source that decides it.
type Row struct {
	ID      string
	Verdict Verdict
	Reason  string
	Source  string
	// Reachable marks "FAIL or PASS": the source has the defect, but a
	// race a short hunt reaches in some runs only; a PASS is no
	// difference.
	Reachable bool
}

// reachable is the expected cell of a Row that is Reachable.
const reachable = "FAIL or PASS"

// Need is a setting a target needs that rlspec may not have yet
// ("needs: RESET_FORMAT=delta (dialects.md)").
type Need struct {
	Var, Value, Where string
}

func (n Need) String() string {
	s := n.Var + "=" + n.Value
	if n.Where != "" {
		s += " (" + n.Where + ")"
	}
	return s
}

// Expected is a target's expected.md.
type Expected struct {
	Needs []Need
	Rows  []Row
}

var (
	needRe = regexp.MustCompile(`^([A-Z_]+)=(\S+)(?:\s+\((.*)\))?$`)
	idRe   = regexp.MustCompile(`^([A-Z]+[0-9]*(-[A-Z0-9]+)*-[0-9]{2}|race)$`)
)

// ReadExpected parses path: an optional "needs: A=a (where); B=b" line and
// the table | scenario | expected | reason | source |.
func ReadExpected(path string) (Expected, error) {
	f, err := os.Open(path)
	if err != nil {
		return Expected{}, fmt.Errorf("read expected: %w", err)
	}
	defer f.Close()
	var e Expected
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "needs:"); ok {
			for _, s := range strings.Split(rest, ";") {
				m := needRe.FindStringSubmatch(strings.TrimSpace(s))
				if m == nil {
					return Expected{}, fmt.Errorf("%s:%d: need %q is not VAR=value (where)", path, n, strings.TrimSpace(s))
				}
				e.Needs = append(e.Needs, Need{m[1], m[2], m[3]})
			}
			continue
		}
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		id := strings.Trim(cells[0], "`")
		if !idRe.MatchString(id) {
			continue // the header, the separator
		}
		if len(cells) != 4 {
			return Expected{}, fmt.Errorf("%s:%d: a row has 4 cells: scenario, expected, reason, source", path, n)
		}
		v, some := Verdict(cells[1]), cells[1] == reachable
		if some {
			v = Fail
		}
		if v != Pass && v != Fail && v != Skipped {
			return Expected{}, fmt.Errorf("%s:%d: %q is not PASS, FAIL, SKIPPED or %s", path, n, cells[1], reachable)
		}
		if seen[id] {
			return Expected{}, fmt.Errorf("%s:%d: %s twice", path, n, id)
		}
		if cells[2] == "" || cells[3] == "" {
			return Expected{}, fmt.Errorf("%s:%d: %s needs a reason and a source", path, n, id)
		}
		seen[id] = true
		e.Rows = append(e.Rows, Row{ID: id, Verdict: v, Reason: cells[2], Source: cells[3], Reachable: some})
	}
	if err := sc.Err(); err != nil {
		return Expected{}, fmt.Errorf("read expected: %w", err)
	}
	if len(e.Rows) == 0 {
		return Expected{}, fmt.Errorf("%s: no expected verdicts", path)
	}
	return e, nil
}

// Unmet lists the needs the rlspec whose `acceptance -h` is help does not
// meet: its flag (the variable in lower case, '-' for '_') is missing, or
// the value is a word (a profile, a dialect, a format, none, text:) that
// the flag's help line does not name. Free values (a prefix, a status)
// need only the flag.
func Unmet(needs []Need, help string) []Need {
	var out []Need
	for _, n := range needs {
		flagName := "-" + strings.ReplaceAll(strings.ToLower(n.Var), "_", "-") + " "
		i := strings.Index(help, flagName)
		if i < 0 {
			out = append(out, n)
			continue
		}
		rest := help[i+len(flagName):]
		if j := strings.Index(rest, "\n  -"); j >= 0 {
			rest = rest[:j]
		}
		if w := valueWord(n.Value); w != "" && !names(rest, w) {
			out = append(out, n)
		}
	}
	return out
}

// valueWord is the word of an enumerated value help must name: the value
// itself when it is a lower-case word, "text:" for text:<regexp>, else "".
func valueWord(v string) string {
	if strings.HasPrefix(v, "text:") {
		return "text:"
	}
	if regexp.MustCompile(`^[a-z][a-z0-9-]*$`).MatchString(v) {
		return v
	}
	return ""
}

// names tells whether help names the word w: a whole word, or for "text:"
// a prefix.
func names(help, w string) bool {
	if strings.HasSuffix(w, ":") {
		return strings.Contains(help, w)
	}
	return regexp.MustCompile(`(^|[^a-z0-9-])` + regexp.QuoteMeta(w) + `($|[^a-z0-9-])`).MatchString(help)
}
