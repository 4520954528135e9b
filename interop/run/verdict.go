package main

import (
	"fmt"
	"strings"

	"github.com/rlspec/rlspec/internal/junit"
)

// Result is what rlspec said about one scenario.
type Result struct {
	Verdict Verdict
	Reason  string // the failure's or the skip's message, one line
}

// ReadJUnit reads rlspec acceptance's junit.xml: each scenario's id (its
// "id" property) and verdict. An error case (the check could not run) is a
// FAIL whose reason says so.
func ReadJUnit(path string) (map[string]Result, error) {
	rep, err := junit.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read junit: %w", err)
	}
	out := map[string]Result{}
	for _, s := range rep.Suites {
		for _, c := range s.Cases {
			id := c.Property("id")
			if id == "" {
				continue
			}
			r := Result{Verdict: Pass}
			switch {
			case c.Failure != nil:
				r = Result{Fail, oneLine(c.Failure.Message)}
			case c.Error != nil:
				r = Result{Fail, "error: " + oneLine(c.Error.Message)}
			case c.Skipped != "":
				r = Result{Skipped, oneLine(c.Skipped)}
			}
			out[id] = r
		}
	}
	return out, nil
}

// oneLine is s's first line, at most 160 characters.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if r := []rune(s); len(r) > 160 {
		s = string(r[:157]) + "…"
	}
	return s
}

// Diff is one difference between rlspec's verdict and the expectation.
type Diff struct {
	ID       string
	Expected Verdict
	Got      Result
}

func (d Diff) String() string {
	s := fmt.Sprintf("%s: expected %s, rlspec says %s", d.ID, d.Expected, d.Got.Verdict)
	if d.Got.Reason != "" {
		s += " (" + d.Got.Reason + ")"
	}
	return s
}

// Compare lists the rows whose verdict rlspec did not give (or that it did
// not report at all; a PASS of a "FAIL or PASS" row is none), and the
// scenarios rlspec ran (passed or failed, or skipped for a reason other
// than "not claimed") that expected.md does not list.
func Compare(rows []Row, got map[string]Result) []Diff {
	var diffs []Diff
	listed := map[string]bool{}
	for _, r := range rows {
		listed[r.ID] = true
		g, ok := got[r.ID]
		if !ok {
			g = Result{Skipped, "rlspec did not report this scenario"}
		}
		if r.Reachable && g.Verdict == Pass {
			continue // a race the hunt did not reach this time
		}
		if !ok || g.Verdict != r.Verdict {
			diffs = append(diffs, Diff{r.ID, r.Verdict, g})
		}
	}
	for id, g := range sortedResults(got) {
		if !listed[id] && !(g.Verdict == Skipped && strings.HasPrefix(g.Reason, "not claimed")) {
			diffs = append(diffs, Diff{id, "(not listed)", g})
		}
	}
	return diffs
}
