package selftest

import (
	"fmt"
	"strings"

	"github.com/rlspec/rlspec/internal/junit"
)

// JUnit is the matrix as JUnit: one case per reference run (failed unless
// it passed everything), one per fault (failed unless caught as its
// detectors demand) and, for a complete matrix, one saying every scenario
// fails against some fault.
func (m *Matrix) JUnit() junit.Suite {
	s := junit.Suite{Name: "rlspec selftest", Elapsed: m.Elapsed, Properties: []junit.Property{
		junit.Prop("race workloads per hunt", m.RaceChecks), junit.Prop("faults", len(m.Rows)),
	}}
	for _, r := range m.Reference {
		c := junit.Case{Name: fmt.Sprintf("reference run %d/%d passes everything", r.N, len(m.Reference)), Classname: "rlspec.selftest.reference", Elapsed: r.Acceptance.Elapsed + r.Race.Elapsed}
		if !r.OK() {
			text := fmt.Sprintf("acceptance: %s\nrace: %s\n", refAcceptance(r.Acceptance), refRace(r.Race, r.raceChecks))
			if len(r.Acceptance.FailedIDs) > 0 {
				text += "failed: " + strings.Join(r.Acceptance.FailedIDs, " ") + "\n"
			}
			if len(r.Acceptance.SkippedIDs) > 0 {
				text += "skipped: " + strings.Join(r.Acceptance.SkippedIDs, " ") + "\n"
			}
			if r.Race.Found {
				text += "race violation: " + r.Race.Violation + "\n"
			}
			c.Failure = &junit.Problem{Message: "the reference did not pass everything: " + refAcceptance(r.Acceptance), Type: "Reference", Text: text}
		}
		s.Cases = append(s.Cases, c)
	}
	for _, r := range m.Rows {
		c := junit.Case{Name: fmt.Sprintf("fault %s is caught", r.Fault), Classname: "rlspec.selftest.fault", Elapsed: r.Acceptance.Elapsed + r.Race.Elapsed,
			Properties: []junit.Property{junit.Prop("clause", r.Clause), junit.Prop("description", r.Description)}}
		if !r.OK() {
			verdict := "MISSED"
			if !r.Caught() {
				verdict = "SURVIVED"
			}
			text := fmt.Sprintf("%s (%s)\nacceptance: %s\nrace: %s\n", r.Fault, r.Description, rowAcceptance(r), rowRace(r))
			if len(r.Missed) > 0 {
				text += "required scenario(s) passed: " + strings.Join(r.Missed, " ") + "\n"
			}
			c.Failure = &junit.Problem{Message: fmt.Sprintf("%s: %s", verdict, r.Fault), Type: verdict, Text: text}
		}
		s.Cases = append(s.Cases, c)
	}
	if m.Complete() && len(m.Reference) > 0 {
		c := junit.Case{Name: "every scenario fails against at least one fault", Classname: "rlspec.selftest"}
		if t := m.Toothless(); len(t) > 0 {
			c.Failure = &junit.Problem{Message: fmt.Sprintf("%d toothless scenario(s)", len(t)), Type: "Toothless", Text: strings.Join(t, " ")}
		}
		s.Cases = append(s.Cases, c)
	}
	return s
}
